import { nextTask } from './early/next-task';

/**
 * Start-up in stages, each in its own task. Evaluating the shell's modules (valibot schemas, the router,
 * emotion, the frame) and React's first render in one go is one long task of 150 ms and more on a slow
 * phone (Total Blocking Time); between stages the browser can paint and answer input. The dynamic imports
 * are `eager`: no extra chunk and no request, only evaluation deferred to the stage that needs it.
 */
async function start() {
  // Not in the task that evaluated the shared libraries' chunk (this module runs in its microtasks): the
  // region's helpers bring the API client and the contracts' schemas with them.
  await nextTask();
  // Before React replaces the server's picture of the page: keep the route's region to show until it is live.
  (await import(/* webpackMode: "eager" */ './federation/prerendered-region')).takePrerenderedRegion();
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
