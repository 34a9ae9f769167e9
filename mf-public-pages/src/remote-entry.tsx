// The module the shell loads as './App'. It records which React this remote runs on (the e2e suite checks
// that every app shares one copy) and hands over the remote's routes in app.tsx.
import { registerReactCopy } from '@app/session';
import * as React from 'react';
import App from './app';

registerReactCopy(React);

export default App;
