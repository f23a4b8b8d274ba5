// One cold generation of a project's protocols in a fresh process, timed stage by stage as
// the pipeline runs it: each module printed as it is emitted (PRINT_AS_EMITTED), so that
// one type's code is alive at a time. The printing (the code passes over each section,
// then the layout and the printer), and that of the JSON files, is counted as format, not
// as emit. Prints one line of JSON: milliseconds by stage, the output's size, the resident
// memory at the end. Run by generate.bench.js and definitions.bench.js:
//
//   node bench/stages.js [project folder, else the current one]
const started = performance.now();
const build = new URL("../build/generator/", import.meta.url);
const { load } = await import(new URL("load/index.js", build));
const { resolve } = await import(new URL("resolve/index.js", build));
const { applyOverlays } = await import(new URL("overlay/index.js", build));
const { normalize } = await import(new URL("normalize/index.js", build));
const { nameIr } = await import(new URL("name/index.js", build));
const { emitProtocol } = await import(new URL("emit/index.js", build));
const { compileStream } = await import(new URL("stream/index.js", build));
const { format, PRINT_AS_EMITTED } = await import(new URL("format/index.js", build));

const marks = { import: 0, load: 0, resolve: 0, overlay: 0, normalize: 0, name: 0, emit: 0, format: 0 };
let at = started;
const lap = (name) => {
  const now = performance.now();
  marks[name] += now - at;
  at = now;
};
/** The time spent printing inside emit, moved to format once emit's lap is taken. */
let printing = 0;
const timed =
  (print) =>
  (...args) => {
    const before = performance.now();
    try {
      return print(...args);
    } finally {
      printing += performance.now() - before;
    }
  };
const printer = {
  start() {
    const { sink, finish } = PRINT_AS_EMITTED.start();
    return { sink: timed(sink), finish: timed(finish) };
  },
};
/** Emit's lap, without the printing inside it. */
const emitted = () => {
  lap("emit");
  marks.emit -= printing;
  marks.format += printing;
  printing = 0;
};
lap("import");
const project = load(process.argv[2] ?? process.cwd());
lap("load");
let outputBytes = 0;
for (const protocol of project.protocols) {
  const resolved = resolve(project, protocol);
  lap("resolve");
  const effective = applyOverlays(resolved);
  lap("overlay");
  const ir = normalize(effective);
  lap("normalize");
  const named = nameIr(ir, effective);
  lap("name");
  for (const file of emitProtocol(named, compileStream(protocol, named), printer)) {
    emitted();
    outputBytes += Buffer.byteLength(format([file])[0].content);
    lap("format");
  }
  emitted();
}
console.log(JSON.stringify({ ...marks, outputBytes, rssMiB: process.memoryUsage().rss / 1048576 }));
