import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Whether a `pattern` can backtrack catastrophically on the built-in engine, which the
 * generated checks run it on: a pattern whose parts can match the same text in many ways
 * (`^(a+)+$`, nested quantifiers, overlapping alternatives under a quantifier) takes time
 * exponential, or a high power, in the length of a text that nearly matches, and a value
 * from outside can then stall a guard.
 *
 * Asked of redos-detector, which follows every path a text can take through the pattern
 * and counts those that match the same prefix: past 200, or past its budget of steps
 * before it can tell, the pattern is reported. Both bounds are counts, so the answer is
 * the same on any machine. A pattern with no quantifier cannot repeat, and is not asked.
 *
 * The analysis runs in a worker thread beside the pipeline, since following the paths of
 * the four protocols' patterns costs about as much as a fifth of a generation, and the
 * answers are awaited at its end. Each source's answer is kept for the process: it is a
 * function of the source alone.
 */
export function backtrackingReason(source: string): Promise<string | undefined> {
  // Without `*`, `+`, `?` or `{`, nothing repeats: each place in the text is tried a
  // bounded number of ways.
  if (!/[*+?{]/.test(source)) return Promise.resolve(undefined);
  let known = answers.get(source);
  if (known === undefined) {
    known = analyst.analyse(source).then(describe);
    answers.set(source, known);
  }
  return known;
}

/**
 * The process's one worker, shared by every generation in it: starting one costs more than
 * a small schema's whole generation. It starts at the first question, holds the process
 * open only while an answer is awaited (unref'd otherwise, so it never keeps a process
 * alive, whatever a generation's error), and ends once idle for IDLE_MS.
 */
class Analyst {
  private worker: Worker | undefined;
  private idle: NodeJS.Timeout | undefined;
  private readonly waiting = new Map<number, { readonly resolve: (answer: Analysis) => void; readonly reject: (error: unknown) => void }>();
  private next = 0;

  analyse(source: string): Promise<Analysis> {
    clearTimeout(this.idle);
    const worker = (this.worker ??= this.start());
    worker.ref();
    const id = this.next++;
    worker.postMessage({ id, source });
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  private start(): Worker {
    const worker = new Worker(WORKER, { eval: true, workerData: { detector: DETECTOR, maxSteps: MAX_STEPS } });
    worker.on("message", ({ id, analysis }: { id: number; analysis: Analysis }) => {
      this.waiting.get(id)!.resolve(analysis);
      this.waiting.delete(id);
      if (this.waiting.size > 0) return;
      worker.unref();
      this.idle = setTimeout(() => this.stop(worker), IDLE_MS).unref();
    });
    // A worker that fails (its module missing) is a bug: every answer awaited fails with it.
    worker.on("error", (error) => {
      for (const { reject } of this.waiting.values()) reject(error);
      this.waiting.clear();
      this.stop(worker);
    });
    return worker;
  }

  private stop(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
  }
}

/** How long the worker waits for another question before it ends. */
const IDLE_MS = 1_000;

const analyst = new Analyst();

/** What the worker says of a pattern: safe, or why not and two parts that match the same text. */
type Analysis = { readonly safe: true } | { readonly safe: false; readonly gaveUp: boolean; readonly parts?: readonly [string, string] };

/** The steps of the analysis, a count: enough to tell every pattern of the four protocols and the JSON-Schema-Test-Suite apart. */
const MAX_STEPS = 2_000;

/** redos-detector's module, found from here, so that the worker finds it wherever the generator is installed. */
const DETECTOR = createRequire(import.meta.url).resolve("redos-detector");

/**
 * The worker: answers each pattern with redos-detector's verdict. A pattern it cannot read
 * (a syntax of the `u` flag it does not know) is not reported.
 *
 * redos-detector forks its readers by the thousand, each held by a WeakRef and registered
 * with a FinalizationRegistry, and an analysis is one synchronous call: a WeakRef keeps its
 * target alive until the call ends, and a registry's cleanups run only after it. So plain
 * references and a registry that does nothing answer the same, with no weak cell for the
 * collector to trace; what one analysis made is garbage once it returns, held by nothing
 * global. Half the time of the catalog's patterns was garbage collection; it now takes half
 * as long, and every verdict is the same.
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
globalThis.WeakRef = class {
  #target;
  constructor(target) { this.#target = target; }
  deref() { return this.#target; }
};
globalThis.FinalizationRegistry = class {
  register() {}
  unregister() { return false; }
};
const { isSafePattern } = require(workerData.detector);
parentPort.on("message", ({ id, source }) => {
  let analysis = { safe: true };
  try {
    const result = isSafePattern(source, { unicode: true, maxSteps: workerData.maxSteps });
    if (!result.safe) {
      const first = result.trails[0] && result.trails[0].trail[0];
      analysis = { safe: false, gaveUp: result.error === "hitMaxSteps", parts: first && [first.a.node.source, first.b.node.source] };
    }
  } catch {}
  parentPort.postMessage({ id, analysis });
});
`;

const answers = new Map<string, Promise<string | undefined>>();

function describe(analysis: Analysis): string | undefined {
  if (analysis.safe) return undefined;
  const parts = analysis.parts === undefined ? "" : ` (\`${analysis.parts[0]}\` and \`${analysis.parts[1]}\` can match the same text)`;
  return analysis.gaveUp
    ? `can match a text in too many ways to follow${parts}, and may backtrack catastrophically`
    : `can backtrack catastrophically${parts}: a text that nearly matches takes time exponential or polynomial in its length`;
}
