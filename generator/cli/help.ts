import { ERROR_LIMIT } from "../limits.js";

/** What `--help` prints: the usage of agentwire, and of each command. */

export const USAGE = `Usage: agentwire <command> [--config FILE] [--help]
       agentwire --version

The project is the folder of its config, agentwire.config.json: the nearest
from the working folder up, or the file --config names. Paths in it are
relative to it. Options take their value as --opt value or --opt=value.

Commands:
  init       write a starter config; vendor built-in protocols into it
  generate   regenerate the output folder from the config's schemas
  check      exit 1 if the output differs from a fresh generation
  diff       classify the changes between two versions of a schema
  update     re-vendor schemas from their upstream URLs and regenerate
  verify     check a recorded stream of a protocol against its rules

Exit codes: 0 success, 1 drift or changes (check, diff, update --check) or
violations (verify), 2 error (bad input; nothing written).`;

export const INIT_HELP = `Usage: agentwire init [--protocol NAME]... [--output FOLDER] [--force]

Writes agentwire.config.json in the working folder where no config is found,
its output plain TypeScript sources in FOLDER (src/protocols unless given).
Each --protocol vendors one of the protocols built into agentwire (a name it
does not know is refused with the list of them): its schema and overlay are
copied into schemas/ and listed in the config, pinned. Run again, it changes nothing; a vendored file that differs
from agentwire's copy is kept and reported, exit 2, unless --force.`;

export const GENERATE_HELP = `Usage: agentwire generate [--watch]

Reads the config and the schemas and overlays it lists, and rewrites the
output folder from them: the protocols' sources, sources.json, and in a package
package.json, tsconfig.json and README.md (src/ whole; dist/ stays).
Then pins each schema that changed: records its sha256 in the config,
keeping the file's layout, and prints a line for it. Prints one line per protocol
and the time taken. On bad input it prints the file and JSON Pointer of each
problem (every protocol's, up to ${ERROR_LIMIT}, then how many), exits with 2 and writes
nothing; the previous output stays.

With --watch it generates, then again whenever the config or a file the
generation read changes (a schema, an overlay, a file a $ref reads), printing
the inputs that changed and the output files that rewrote. A bad edit prints
its error and writes nothing; the watch goes on until Ctrl-C.`;

export const CHECK_HELP = `Usage: agentwire check [--full]

Generates in memory and compares the result with the output folder, byte for
byte, including files that would be missing or that a generation would not
write, and each schema with the sha256 the config pins for it. Never writes.
Exit 0 when all match, 1 with a unified diff of what \`agentwire generate\` would
change when they do not (a schema edited since it was pinned included), 2 on bad
input.

  --full   print the whole diff; without it, the first 400 lines.`;

export const DIFF_HELP = `Usage: agentwire diff OLD NEW [--protocol NAME] [--format FORMAT] [--fail-on WHAT]
       agentwire diff --since REVISION [--format FORMAT] [--fail-on WHAT]

A semantic diff of two versions of a protocol's schema, computed on the IR and
through references: each change with its JSON Pointer and, in each category,
the audiences it breaks: receivers (code that decodes and matches) and
producers (code that builds and sends). Receivers are strict (isT, validateT,
decodeT by default: a closed object refuses a property it does not declare) or
tolerant (decodeT in tolerant mode: such a property is dropped, an unknown enum
value read as the fallback); a change that breaks only the strict ones says
"strict receivers". The categories:

  wire        which JSON values are valid
  source      TypeScript that names a type, calls a builder or matches
              exhaustively stops compiling
  behaviour   meaning the values do not show: a default, a format

Changes are grouped by severity: breaking (wire or source), behaviour,
compatible, docs. Schemas are read as they are: their pins in the config are
not checked, so an edit can be previewed before generating.

  OLD NEW            two schema files of one protocol. When one of them is a
                     protocol's vendored schema, or with --protocol NAME, both
                     are read with that protocol's overlays.
  --since REVISION   every protocol of the config as it was at a git revision
                     (origin/main, a tag, a commit) against the working tree.
  --format FORMAT    text (default), for a terminal; markdown, a summary line
                     and a table for a pull request comment or a CI job
                     summary; json, for machines.
  --json             the same as --format json.
  --fail-on WHAT     exit 1 on a break in these categories, a comma-separated
                     list, each alone or with an audience: wire:producers,
                     source, behaviour:receivers. The audiences: producers;
                     receivers, or strict-receivers, any break of receivers;
                     tolerant-receivers, one that breaks tolerant ones too.
                     breaking is all three categories; any fails on any
                     change; none never fails. Default: wire,source.

Exit codes: 0 nothing to fail on, 1 changes to fail on, 2 error.`;

export const UPDATE_HELP = `Usage: agentwire update [NAME] [--check]

Fetches the schema of protocol NAME (or of every protocol with an upstream URL in
the config), and when it differs from the vendored copy prints the semantic
diff (see agentwire diff), writes the new schema, regenerates the output and
pins the schema's sha256. Upstream URLs are https:, file: (relative to the
config), or http: on 127.0.0.1. Redirects are followed on the same
host only; bodies over 10 MB, bodies that are not JSON and failed requests are
errors. Every upstream is fetched first: if any fails, each failure is printed
and nothing changes.

  --check   change nothing; exit 1 when an upstream differs from its vendored
            copy (for a scheduled CI job), 0 when all are up to date.

Exit codes: 0 up to date or updated, 1 out of date (--check), 2 error.`;

export const VERIFY_HELP = `Usage: agentwire verify NAME [FILE|-] [--framing sse|jsonl|json]
                        [--mode strict|tolerant] [--resumed] [--input FILE]
                        [--idle-timeout MS] [--max-memory BYTES] [--json]

Reads a recorded stream of protocol NAME (a file, or standard input with - or no
FILE), decodes every event (strictly, unless --mode tolerant), checks the
stream's ordering rules and assembles what it builds, as the stream facts of the
protocol's overlay say, with the protocol's generated stream module: the
project's own where its config names NAME (compiled in memory, no build needed),
else agentwire's built-in NAME, in any folder. Prints each violation with its
event index and line: a rule broken, a step that does not apply (a state patch),
an event the schema refuses, text that is not JSON, an event cut off. The
transport's own error report (a JSON-RPC error response, or the SSE event the
protocol's facts name) ends the stream, and is no violation.

  --framing   server-sent events (sse), JSON lines (jsonl), or a JSON array of
              the events (json). By default the content says: a [ first is a
              JSON array, a first line that is a JSON document is JSON lines,
              anything else server-sent events; one JSON document over several
              lines is refused (exit 2), since it is no stream. An array's
              items are read one at a time, each as a stream's event is (16 MiB
              at most), and each is an event: its index counts from 0, its line
              is where it starts. A missing item or text after the array is
              refused; a file that ends before its ] is cut off, a violation.
  --mode      strict (the default) decodes as the schema says: an unknown
              property or event type is a schema violation. tolerant decodes
              as the protocol's receivers do: unknown properties are dropped,
              and an event the schema does not know (a newer event type) is
              skipped, unseen by the rules, as a receiver drops it. Each is
              printed as a note, which is no violation (exit 0 if nothing else
              is wrong), and counted in the last line.
  --resumed   the stream resumes a run after a reconnection: its first event may
              be what the facts allow then, and carries what came before.
  --input FILE
              the request that opened the stream, a JSON file: what it carries
              counts where the facts say where (a refers rule's request), so
              that a tool result may answer a call its messages made, and one
              that answers no call is a violation even where the stream never
              echoes the request.
  --idle-timeout MS
              stop reading where no whole event comes within MS milliseconds (a
              live stream on standard input that stalls): an idle-timeout violation.
  --max-memory BYTES
              the most the verifier holds of the stream's keys (16 MiB unless
              given); the event that would pass it is a max-memory violation, and
              nothing is checked after it.
  --json      print the violations (and, tolerant, the notes) as JSON, for
              machines.

Exit codes: 0 no violations, 1 violations, 2 error.`;
