/** The part of autocannon's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      amount?: number;
      overallRate?: number;
      ignoreCoordinatedOmission?: boolean;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }
    interface Result {
      latency: Histogram;
      requests: Histogram & { total: number };
      non2xx: number;
      errors: number;
    }
  }
  /** Resolves with the result; emits 'response' (client, statusCode, bytes, milliseconds) as it runs. */
  function autocannon(options: autocannon.Options): Promise<autocannon.Result> & {
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, bytes: number, milliseconds: number) => void,
    ): void;
  };
  export = autocannon;
}
