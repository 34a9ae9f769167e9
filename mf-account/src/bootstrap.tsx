// Runs only when the team serves this remote alone; the shell loads ./App through Module Federation.
import { renderStandalone } from '@app/dev-frame';
import App from './app';

renderStandalone(App, { title: 'Account', links: ['/login', '/register', '/forgot-password', '/profile'] });
