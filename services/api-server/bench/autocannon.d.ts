// The few parts of autocannon the benchmark uses (it ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Called before each request; returns the request to send. */
      setupRequest?: (req: Request) => Request;
    }
    interface Options {
      url: string;
      title?: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      headers?: Record<string, string>;
      requests?: Request[];
      workers?: number;
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram & { total: number };
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(
    opts: autocannon.Options,
    cb: (err: Error | null, res: autocannon.Result) => void,
  ): unknown;
  export default autocannon;
}
