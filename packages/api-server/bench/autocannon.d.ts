// The few parts of autocannon the benchmark uses (it ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      title?: string;
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
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
    }
  }
  function autocannon(
    opts: autocannon.Options,
    cb: (err: Error | null, res: autocannon.Result) => void,
  ): unknown;
  export default autocannon;
}
