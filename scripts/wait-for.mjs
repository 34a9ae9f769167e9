// One way the scripts wait for a server they started: poll a URL until it answers 2xx, give up when the
// process behind it has exited or the time is out.

/**
 * @param {string} url
 * @param {number} timeoutMs
 * @param {() => boolean} [isAlive]  false once the process that should answer has exited
 */
export async function waitForHttp(url, timeoutMs, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`gave up waiting for ${url}: its process exited`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}
