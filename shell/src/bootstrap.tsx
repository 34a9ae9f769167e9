import { nextTask } from './early/next-task';
import { takePrerenderedRegion } from './federation/prerendered-region';

/**
 * Start-up in stages, each in its own task. Evaluating the shell's modules (valibot schemas, the router,
 * emotion, the frame) and React's first render in one go is one long task of 150 ms and more on a slow
 * phone (Total Blocking Time); between stages the browser can paint and answer input. The dynamic imports
 * are `eager`: no extra chunk and no request, only evaluation deferred to the stage that needs it.
 */
async function start() {
  // Before React replaces the server's picture of the page: keep the route's region to show until it is live.
  takePrerenderedRegion();
  await nextTask();
  const startup = await import(/* webpackMode: "eager" */ './startup');
  const render = startup.renderer();
  try {
    const { config, rollout } = await startup.prepare();
    await nextTask();
    const { App } = await import(/* webpackMode: "eager" */ './app');
    await nextTask();
    (await render).app(config, rollout, App);
  } catch (error) {
    (await render).startupError(error);
  }
}

void start();
