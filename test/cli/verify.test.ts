import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../generator/cli/main.js";
import { run, runWithInput } from "../helpers/cli.js";
import { REPO } from "../helpers/project.js";
import { scratchFolder } from "../helpers/scratch.js";

/**
 * `agentwire verify` on recordings, run in this repository, whose built package
 * (generated/dist, which `npm run generate` builds) holds the protocols' stream modules.
 */
const dir = scratchFolder("agentwire-verify-");
function recording(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const sse = (...events: object[]) => events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("");
const jsonLines = (...events: object[]) => events.map((event) => `${JSON.stringify(event)}\n`).join("");
const started = { type: "RUN_STARTED", threadId: "t", runId: "r" };
const finished = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
const text = (type: string, delta?: string) => ({ type, messageId: "m1", ...(delta === undefined ? {} : { delta }) });

describe("agentwire verify", () => {
  it("passes a clean AG-UI recording, with exit 0", async () => {
    const file = recording(
      "clean.sse",
      sse(started, text("TEXT_MESSAGE_START"), text("TEXT_MESSAGE_CONTENT", "Hi"), text("TEXT_MESSAGE_END"), finished),
    );
    expect(await run(REPO, "verify", "ag-ui", file)).toEqual({ code: 0, out: `${file}: no violations in 5 events (sse)\n`, err: "" });
  });

  it("prints each violation with its line and index, and the end's, with exit 1", async () => {
    const file = recording("broken.sse", sse(started, text("TEXT_MESSAGE_CONTENT", "Hi"), text("TEXT_MESSAGE_START")));
    const { code, out } = await run(REPO, "verify", "ag-ui", file);
    expect(out).toBe(
      [
        `${file}:3: event 1: text-message: TEXT_MESSAGE_CONTENT for text message "m1", which is not open: open it with TEXT_MESSAGE_START first`,
        `${file}: at the end: text-message: text message "m1" (opened at event 2) was never closed: the stream ended before TEXT_MESSAGE_END`,
        `${file}: 2 violations in 3 events (sse)`,
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
  });

  it("reports an event the schema refuses and text that is not JSON, and reads on", async () => {
    const file = recording("faults.sse", `${sse(started, { type: "TEXT_MESSAGE_START" })}data: {oops\n\n${sse(finished)}`);
    const { code, out } = await run(REPO, "verify", "ag-ui", file);
    expect(out).toBe(
      [
        `${file}:3: event 1: schema: not a valid event: /messageId is required`,
        `${file}:5: event 2: not-json: not JSON: Expected property name or '}' in JSON at position 1`,
        `${file}: 2 violations in 4 events (sse)`,
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
  });

  it("gives each violation the index of its event in the stream, where events before it were not the verifier's", async () => {
    // The verifier counts the event it could not be given: the one after it is the stream's
    // event 1, not its first, and is held to what may come there.
    const file = recording("index.sse", `data: {oops\n\n${sse(text("TEXT_MESSAGE_END"))}`);
    expect((await run(REPO, "verify", "ag-ui", file)).out).toBe(
      [
        `${file}:1: event 0: not-json: not JSON: Expected property name or '}' in JSON at position 1`,
        `${file}:3: event 1: in-run: TEXT_MESSAGE_END must come inside a run, and none is open`,
        `${file}: 2 violations in 2 events (sse)`,
        "",
      ].join("\n"),
    );
    // A stream of one event it could not read has an event: not "no events" at the end.
    const none = recording("none.sse", "data: {oops\n\n");
    expect((await run(REPO, "verify", "ag-ui", none)).out).toBe(
      [
        `${none}:1: event 0: not-json: not JSON: Expected property name or '}' in JSON at position 1`,
        `${none}: 1 violation in 1 event (sse)`,
        "",
      ].join("\n"),
    );
    // The verifier's own words count the same way: the span opened at the stream's event 2.
    const opened = recording("opened.sse", `${sse(started)}data: {oops\n\n${sse(text("TEXT_MESSAGE_START"))}`);
    expect((await run(REPO, "verify", "ag-ui", opened)).out).toContain(
      `${opened}: at the end: text-message: text message "m1" (opened at event 2) was never closed`,
    );
  });

  it("assembles what the stream builds: a state patch that does not apply is a violation", async () => {
    const delta = { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: 2 }] };
    const file = recording("patch.sse", sse(started, delta, finished));
    expect(await run(REPO, "verify", "ag-ui", file)).toEqual({
      code: 1,
      out: [
        `${file}:3: event 1: state-delta: STATE_DELTA: operation 0 of the patch ({"op":"replace","path":"/count","value":2}) does not apply to state: there is no /count`,
        `${file}: 1 violation in 3 events (sse)`,
        "",
      ].join("\n"),
      err: "",
    });
  });

  it("tells JSON lines from server-sent events by their content, or as --framing says", async () => {
    const notifications = jsonLines(
      { jsonrpc: "2.0", method: "item/agentMessage/delta", params: { threadId: "t", turnId: "u", itemId: "i", delta: "a" } },
      { jsonrpc: "2.0", method: "item/completed", params: { threadId: "t", turnId: "u", item: item("i") } },
      { jsonrpc: "2.0", method: "item/agentMessage/delta", params: { threadId: "t", turnId: "u", itemId: "i", delta: "b" } },
    );
    const file = recording("app-server.jsonl", notifications);
    const { code, out } = await run(REPO, "verify", "app-server", file);
    expect(out).toBe(
      [
        `${file}:3: event 2: item: item/agentMessage/delta for item "i", which has already ended: open it with item/started first`,
        `${file}: 1 violation in 3 events (jsonl)`,
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
    // Read as server-sent events, no line is one: each a field SSE ignores, which it says.
    const forced = await run(REPO, "verify", "app-server", file, "--framing", "sse");
    const unknown = 'unknown-field: a line of JSON with no "data:" before it, which server-sent events ignore';
    expect(forced.out).toBe(
      [1, 2, 3].map((line) => `${file}:${line}: event ${line - 1}: ${unknown}`).join("\n") + `\n${file}: 3 violations in 3 events (sse)\n`,
    );
    expect(forced.code).toBe(1);
  });

  it("still reads JSON lines by their first line, a whole document even where it is not JSON, and server-sent events", async () => {
    const lines = recording("run.jsonl", `{oops}\n${jsonLines(started, text("TEXT_MESSAGE_START"), text("TEXT_MESSAGE_END"), finished)}`);
    expect(await run(REPO, "verify", "ag-ui", lines)).toEqual({
      code: 1,
      out: [
        `${lines}:1: event 0: not-json: not JSON: Expected property name or '}' in JSON at position 1`,
        `${lines}: 1 violation in 5 events (jsonl)`,
        "",
      ].join("\n"),
      err: "",
    });
    const events = recording("run.sse", sse(started, text("TEXT_MESSAGE_START"), text("TEXT_MESSAGE_END"), finished));
    expect(await run(REPO, "verify", "ag-ui", events)).toEqual({ code: 0, out: `${events}: no violations in 4 events (sse)\n`, err: "" });
  });

  it("reads --mode tolerant as receivers do: an unknown property dropped, an unknown event type skipped, each a note", async () => {
    const file = recording(
      "newer.sse",
      sse(
        { ...started, extra: 1 },
        { type: "BRAND_NEW", x: 1 },
        { ...text("TEXT_MESSAGE_START"), a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 },
        text("TEXT_MESSAGE_END"),
        finished,
      ),
    );
    expect(await run(REPO, "verify", "ag-ui", file, "--mode", "tolerant")).toEqual({
      code: 0,
      out: [
        `${file}:1: event 0: note: unknown properties dropped: /extra`,
        `${file}:3: event 1: note: unrecognized event, skipped: /type "BRAND_NEW" is not an Event type this version knows`,
        `${file}:5: event 2: note: unknown properties dropped: /a, /b, /c, /d, /e, and 1 more`,
        `${file}: no violations in 5 events (sse, tolerant: 1 event unrecognized and skipped, 2 with unknown properties dropped)`,
        "",
      ].join("\n"),
      err: "",
    });
    // Strict, the default: each is the schema's violation.
    const strict = await run(REPO, "verify", "ag-ui", file);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain(`${file}:1: event 0: schema: not a valid event: /extra must not have the property "extra"`);
    expect(strict.out).toContain(`${file}:3: event 1: schema: not a valid event: /type unknown type "BRAND_NEW": expected one of`);
    // What else is wrong still is, by each event's index in the stream, the skipped ones counted.
    const broken = recording(
      "newer-broken.sse",
      sse(started, { type: "BRAND_NEW" }, text("TEXT_MESSAGE_CONTENT", "Hi"), text("TEXT_MESSAGE_START")),
    );
    const { code, out } = await run(REPO, "verify", "ag-ui", broken, "--mode", "tolerant", "--json");
    expect(JSON.parse(out)).toEqual({
      file: broken,
      protocol: "ag-ui",
      events: 4,
      framing: "sse",
      mode: "tolerant",
      violations: [
        { rule: "text-message", message: expect.stringContaining("TEXT_MESSAGE_CONTENT for text message"), index: 2, line: 5 },
        { rule: "text-message", message: expect.stringContaining("was never closed"), index: 4 },
      ],
      notes: [
        {
          note: "unrecognized",
          message: 'unrecognized event, skipped: /type "BRAND_NEW" is not an Event type this version knows',
          index: 1,
          line: 3,
        },
      ],
    });
    expect(code).toBe(1);
  });

  it("reads a JSON array of events, pretty-printed, an item an event, each at the line it starts", async () => {
    const items = [started, text("TEXT_MESSAGE_START"), text("TEXT_MESSAGE_CONTENT", "Hi,\n[there]"), finished];
    const pretty = JSON.stringify(items, null, 2);
    const file = recording("fixture.json", `${pretty}\n`);
    // The message is still open when the run finishes: RUN_FINISHED, item 3, starts on line 16.
    const violation = `event 3: text-message: RUN_FINISHED came while text message "m1" (opened at event 1) is still open: close it with TEXT_MESSAGE_END first`;
    expect(await run(REPO, "verify", "ag-ui", file)).toEqual({
      code: 1,
      out: [`${file}:16: ${violation}`, `${file}: 1 violation in 4 events (json)`, ""].join("\n"),
      err: "",
    });
    expect(pretty.split("\n")[15]).toBe("  {");
    // The same from standard input, a byte a chunk (inside strings and escapes too), and on one line.
    const bytes = [...Buffer.from(pretty)].map((byte) => String.fromCharCode(byte));
    expect((await runWithInput(REPO, bytes, "verify", "ag-ui", "--framing", "json")).out).toBe(
      [`<stdin>:16: ${violation}`, "<stdin>: 1 violation in 4 events (json)", ""].join("\n"),
    );
    const flat = recording("flat.json", JSON.stringify(items));
    expect((await run(REPO, "verify", "ag-ui", flat)).out).toBe(
      [`${flat}:1: ${violation}`, `${flat}: 1 violation in 4 events (json)`, ""].join("\n"),
    );
    // An item that is not JSON is a violation, and the reading goes on; --framing jsonl reads it as lines, as before.
    const faulty = recording("faulty.json", `[\n  ${JSON.stringify(started)},\n  {oops},\n  ${JSON.stringify(finished)}\n]\n`);
    expect((await run(REPO, "verify", "ag-ui", faulty)).out).toBe(
      [
        `${faulty}:3: event 1: not-json: not JSON: Expected property name or '}' in JSON at position 4`,
        `${faulty}: 1 violation in 3 events (json)`,
        "",
      ].join("\n"),
    );
    expect((await run(REPO, "verify", "ag-ui", file, "--framing", "jsonl")).out).toContain(`${file}:1: event 0: not-json: not JSON`);
  });

  it("holds an array's items to the stream's size limit, one at a time: the item past it stops the reading", async () => {
    const raw = { type: "RAW", event: "x".repeat(16 * 1024 * 1024) };
    const file = recording("large.json", `[\n${JSON.stringify(started)},\n${JSON.stringify(raw)},\n${JSON.stringify(finished)}\n]\n`);
    expect((await run(REPO, "verify", "ag-ui", file)).out).toBe(
      [
        `${file}:3: event 1: too-large: an event is larger than 16777216 bytes, the most this reader takes (maxEventSize)`,
        `${file}: at the end: run: the run (opened at event 0) was never closed: the stream ended before RUN_FINISHED`,
        `${file}: 2 violations in 2 events (json)`,
        "",
      ].join("\n"),
    );
  });

  it("reports an array the file ends in as cut off, and refuses what is not an array of events, with exit 2", async () => {
    const unclosed = recording("unclosed.json", `[\n${JSON.stringify(started)},\n${JSON.stringify(finished)}\n`);
    expect((await run(REPO, "verify", "ag-ui", unclosed)).out).toBe(
      [
        `${unclosed}:4: at the end: cut-off: the stream ended inside the JSON array, before the ] that closes it`,
        `${unclosed}: 1 violation in 2 events (json)`,
        "",
      ].join("\n"),
    );
    const cut = recording("cut.json", `[${JSON.stringify(started)},\n{"type":"RUN_FIN`);
    expect((await run(REPO, "verify", "ag-ui", cut)).out).toContain(
      `${cut}:2: event 1: cut-off: the stream ended inside an event, an item of the JSON array\n`,
    );
    for (const [name, content, where, problem] of [
      ["comma.json", `[${JSON.stringify(started)},\n]`, "2:1", "an item missing in the JSON array: a comma just before its closing ]"],
      [
        "commas.json",
        `[${JSON.stringify(started)},,${JSON.stringify(finished)}]`,
        "1:52",
        "an item missing in the JSON array: nothing before this comma",
      ],
      ["two.json", `[${JSON.stringify(started)}]\n[]`, "2:1", "text after the `]` that closes the JSON array"],
    ]) {
      const file = recording(name!, content!);
      expect(await run(REPO, "verify", "ag-ui", file)).toEqual({
        code: 2,
        out: "",
        err: expect.stringContaining(`agentwire verify: ${file}:${where}: ${problem}`),
      });
    }
    expect(await run(REPO, "verify", "ag-ui", recording("events.jsonl", jsonLines(started)), "--framing", "json")).toMatchObject({
      code: 2,
      err: expect.stringContaining('events.jsonl:1:1: --framing json reads a JSON array of events, and this starts with "{", not ['),
    });
  });

  it("refuses one JSON document over several lines with one message, exit 2", async () => {
    const file = recording("event.json", `\n${JSON.stringify(started, null, 2)}\n`);
    expect(await run(REPO, "verify", "ag-ui", file)).toEqual({
      code: 2,
      out: "",
      err: [
        `agentwire verify: ${file}:2:1: one JSON document over several lines, which is no stream: verify reads JSON lines (an event a line), a JSON array of events, or server-sent events`,
        `  for JSON lines, \`jq -c . ${file}\`; for an array of events, \`jq -s . ${file}\`; --framing jsonl reads it as JSON lines as it is`,
        "",
      ].join("\n"),
    });
    // From standard input too, however it comes in chunks.
    const bytes = [...Buffer.from(JSON.stringify(started, null, 2))].map((byte) => String.fromCharCode(byte));
    expect(await runWithInput(REPO, bytes, "verify", "ag-ui")).toEqual({
      code: 2,
      out: "",
      err: expect.stringContaining("agentwire verify: <stdin>:1:1: one JSON document over several lines, which is no stream"),
    });
    // Asked for, JSON lines it is: each line not JSON, as before.
    expect((await run(REPO, "verify", "ag-ui", file, "--framing", "jsonl")).out).toContain(`${file}:2: event 0: not-json: not JSON`);
  });

  it("reads standard input with - or no FILE, and prints JSON with --json", async () => {
    const body = sse(started, finished, text("TEXT_MESSAGE_START"));
    const { code, out } = await runWithInput(REPO, [body.slice(0, 30), body.slice(30)], "verify", "ag-ui", "--json");
    expect(JSON.parse(out)).toEqual({
      file: "<stdin>",
      protocol: "ag-ui",
      events: 3,
      framing: "sse",
      mode: "strict",
      violations: [
        {
          rule: "in-run",
          message: "TEXT_MESSAGE_START must come inside a run, and none is open (the last one ended at event 1)",
          index: 2,
          line: 5,
        },
      ],
    });
    expect(code).toBe(1);
    expect((await runWithInput(REPO, [sse(started, finished)], "verify", "ag-ui", "-")).code).toBe(0);
  });

  it("takes the transport's error report as the stream's end, not as a violation, where the protocol defines one", async () => {
    // A2A over JSON-RPC: an error response in place of a result ends the stream.
    const task = { task: { id: "t1", contextId: "c", status: { state: "TASK_STATE_WORKING" } } };
    const rpc = (message: object) => `data: ${JSON.stringify({ jsonrpc: "2.0", id: 1, ...message })}\n\n`;
    const file = recording("a2a.sse", `${rpc({ result: task })}${rpc({ error: { code: -32603, message: "upstream timed out" } })}`);
    expect(await run(REPO, "verify", "a2a", file)).toEqual({
      code: 0,
      out: [
        `${file}: the stream ended with the transport's error report: upstream timed out`,
        `${file}: no violations in 1 event (sse)`,
        "",
      ].join("\n"),
      err: "",
    });
    // GTM's prose defines no error report: an `event: error` is an event, which is no AgentStreamEvent, and the run is cut off.
    const gtmTask = { task: { id: "run-1", contextId: "c", status: { state: "TASK_STATE_SUBMITTED" } } };
    const gtm = recording("gtm.sse", `${sse(gtmTask)}event: error\ndata: {"message":"upstream timed out"}\n\n`);
    const { code, out } = await run(REPO, "verify", "gtm-agent", gtm);
    expect(code).toBe(1);
    expect(out).toContain(`${gtm}:3: event 1: schema: not a valid event`);
    expect(out).toContain(`${gtm}: at the end: terminal-status: the stream ended before statusUpdate`);
  });

  it("checks a tool result against the request with --input, where the stream does not echo it", async () => {
    // A later turn, as a real .NET Agent Framework recording sends it: the result answers a call the request's messages made.
    const result = { type: "TOOL_CALL_RESULT", messageId: "m2", toolCallId: "c1", content: "sunny" };
    const file = recording("turn2.sse", sse(started, result, finished));
    const request = (messages: object[]) =>
      recording(
        `request-${messages.length}.json`,
        JSON.stringify({ threadId: "t", runId: "r", state: {}, tools: [], context: [], forwardedProps: {}, messages }),
      );
    const call = {
      id: "m1",
      role: "assistant",
      toolCalls: [{ id: "c1", type: "function", function: { name: "weather", arguments: "{}" } }],
    };
    // Not shown, the conversation may hold the call: no violation.
    expect((await run(REPO, "verify", "ag-ui", file)).code).toBe(0);
    expect((await run(REPO, "verify", "ag-ui", file, "--input", request([call]))).code).toBe(0);
    expect(await run(REPO, "verify", "ag-ui", file, "--input", request([]))).toEqual({
      code: 1,
      out: [
        `${file}:3: event 1: tool-result: TOOL_CALL_RESULT refers to "c1", which no earlier TOOL_CALL_START or TOOL_CALL_CHUNK or MESSAGES_SNAPSHOT or RUN_STARTED carried, nor the request`,
        `${file}: 1 violation in 3 events (sse)`,
        "",
      ].join("\n"),
      err: "",
    });
    const missing = await run(REPO, "verify", "ag-ui", file, "--input", "no-such-request.json");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("no-such-request.json: cannot read the request: no such file");
  });

  it("stops a live stream that stalls with --idle-timeout: an idle-timeout violation where it stalled, and what its end breaks", async () => {
    let out = "";
    const stalled = (async function* () {
      yield sse(started, text("TEXT_MESSAGE_START"));
      await new Promise(() => {});
    })();
    const code = await main(["verify", "ag-ui", "-", "--idle-timeout", "20"], {
      cwd: REPO,
      stdin: stalled,
      out: (line) => void (out += `${line}\n`),
      err: () => {},
    });
    expect(out).toBe(
      [
        "<stdin>:5: at the end: idle-timeout: no event came within 20 ms (idleTimeout): the reading stopped",
        '<stdin>: at the end: text-message: text message "m1" (opened at event 1) was never closed: the stream ended before TEXT_MESSAGE_END',
        "<stdin>: 2 violations in 2 events (sse)",
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
    // A first line of JSON that stalls before its end stalls the stream, whatever the line turns out to be.
    out = "";
    const line = (async function* () {
      yield '{"type":"RUN_STARTED",';
      await new Promise(() => {});
    })();
    const options = { cwd: REPO, stdin: line, out: (text: string) => void (out += `${text}\n`), err: () => {} };
    expect(await main(["verify", "ag-ui", "-", "--idle-timeout", "20"], options)).toBe(1);
    expect(out).toContain("<stdin>:1: at the end: idle-timeout: no event came within 20 ms (idleTimeout): the reading stopped\n");
  });

  it("lets standard input go when the idle timeout stops it, so that the command exits", async () => {
    // The real command, its standard input a pipe that stays open.
    const child = spawn(process.execPath, [path.join(REPO, "bin/agentwire.js"), "verify", "ag-ui", "--idle-timeout", "50"], { cwd: REPO });
    child.stdin.write(sse(started));
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    expect(await new Promise((resolve) => child.on("close", resolve))).toBe(1);
    expect(out).toContain("<stdin>:3: at the end: idle-timeout: no event came within 50 ms");
    child.stdin.destroy();
  });

  it("holds the verifier to --max-memory: the event that would pass it is a max-memory violation", async () => {
    const file = recording("calls.sse", sse(started, text("TEXT_MESSAGE_START"), text("TEXT_MESSAGE_END"), finished));
    // The run opens, and the verifier would hold its key (64 bytes): past a bound of none.
    const { code, out } = await run(REPO, "verify", "ag-ui", file, "--max-memory", "0");
    expect(out).toBe(
      [
        `${file}:1: event 0: max-memory: event 0 would make the verifier hold more than 0 bytes of keys for this stream (maxMemory): it checks nothing after it`,
        `${file}: 1 violation in 4 events (sse)`,
        "",
      ].join("\n"),
    );
    expect(code).toBe(1);
    expect((await run(REPO, "verify", "ag-ui", file, "--max-memory", "1000")).code).toBe(0);
  });

  it("refuses what it cannot do, with exit 2", async () => {
    expect(await run(REPO, "verify")).toMatchObject({ code: 2, err: expect.stringContaining("name the protocol") });
    expect(await run(REPO, "verify", "nope", "x.sse")).toMatchObject({ code: 2, err: expect.stringContaining('no protocol "nope"') });
    // A name is never a path: the module it leads to would run.
    for (const name of ["../ag-ui", "ag-ui/../ag-ui", "/tmp/x", "AG-UI"])
      expect(await run(REPO, "verify", name, "x.sse")).toMatchObject({ code: 2, err: expect.stringContaining("is not a protocol name") });
    expect(await run(REPO, "verify", "ag-ui", "x.sse", "--framing", "xml")).toMatchObject({
      code: 2,
      err: expect.stringContaining('--framing is sse, jsonl or json, not "xml"'),
    });
    expect(await run(REPO, "verify", "ag-ui", "x.sse", "--mode", "x")).toMatchObject({
      code: 2,
      out: "",
      err: expect.stringContaining('agentwire verify: --mode is strict or tolerant, not "x"'),
    });
    for (const [option, value] of [
      ["--idle-timeout", "0"],
      ["--idle-timeout", "1.5"],
      ["--idle-timeout", "soon"],
      ["--max-memory", "16MiB"],
    ])
      expect(await run(REPO, "verify", "ag-ui", "x.sse", option!, value!)).toMatchObject({
        code: 2,
        err: expect.stringContaining(`${option} is a whole number from`),
      });
    expect(await run(REPO, "verify", "ag-ui", path.join(dir, "missing.sse"))).toMatchObject({
      code: 2,
      err: expect.stringContaining("cannot read it: ENOENT"),
    });
  });
});

function item(id: string): object {
  return { id, runEventId: "e", type: "agentMessage", status: "completed", createdAtMs: 1 };
}
