// Runs only when the team serves this remote alone; the shell loads ./App through Module Federation.
import { renderStandalone } from '@app/dev-frame';
import { STAY_ON_EXPIRY } from '@app/session';
import App from './app';

renderStandalone(App, {
  title: 'Research',
  links: ['/research-center', '/research', '/create-post'],
  // As in the shell: research screens say 'Session expired' in place (SPEC §8).
  expiry: STAY_ON_EXPIRY,
});
