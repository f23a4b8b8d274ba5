import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** This repository, whose package-lock.json says what a project installs with a tarball of ours. */
const REPO = path.resolve(import.meta.dirname, "../..");

/** What a child process did: its exit code (null when a signal ended it) and what it printed. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Wall time, in milliseconds. */
  readonly ms: number;
}

/** A child process run to its end, without a shell, its output collected. Never rejects: a failed spawn is status null. */
export function exec(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Ran> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk));
    child.on("error", (error) => void (stderr += `spawn error: ${error.message}\n`));
    child.on("close", (status) => resolve({ status, stdout, stderr, ms: performance.now() - started }));
  });
}

/** A run as a test's failure message shows it. */
export function shown(ran: Ran): string {
  return `exit ${String(ran.status)} after ${Math.round(ran.ms)} ms\n--- stdout ---\n${ran.stdout}\n--- stderr ---\n${ran.stderr}`;
}

/**
 * The environment for npm child processes: without the variables `npx`/`npm run` set for
 * this repository (its local prefix, package and lifecycle fields), so npm acts on the
 * directory it is started in, like a user's shell would.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(package_|lifecycle_|command$|config_(local_prefix|call|workspaces?|include_workspace_root)$)/i.test(key)) continue;
    if (key === "INIT_CWD") continue;
    env[key] = value;
  }
  return env;
}

/** The integrity npm records for a file: its sha512, base64, as Subresource Integrity writes it. */
export function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

/** The fields of package.json that a lockfile's entry for a package repeats. */
interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly license?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
}

/** A package's entry in a lockfile (v3): its folder's path is the key. */
interface LockEntry extends Partial<Manifest> {
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly devOptional?: boolean;
  readonly peer?: boolean;
}

interface Lockfile {
  readonly name: string;
  readonly version: string;
  readonly lockfileVersion: 3;
  readonly requires: true;
  readonly packages: Readonly<Record<string, LockEntry>>;
}

/** The package.json in a tarball npm made, without unpacking it. */
export function manifestOf(tarball: string): Manifest {
  return JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as Manifest;
}

/**
 * The lockfile with which `npm ci --offline` installs a tarball of ours into a project as a
 * dev dependency, as `npm i -D <tarball>` would, without the network; with it, `others`
 * of this repository's own dev dependencies (`@types/node`), at the versions it has.
 *
 * Why a lockfile is written rather than `npm i --offline <tarball>` run: to resolve the
 * tarball's dependency ranges npm needs the registry's metadata of each package (its
 * packument), and `npm ci` of this repository puts only the packages' tarballs in npm's
 * cache, not their packuments; on a machine that has done no more than that, the install
 * fails with ENOTCACHED. From a lockfile whose entries have `resolved` and `integrity`, npm
 * resolves nothing: it takes each tarball from the cache by its integrity (a cache holding
 * nothing but the tarballs' contents will do, so the URL is never fetched and its host does
 * not matter). The entries are this repository's own, from its package-lock.json: the
 * tarball's runtime dependencies and everything they need, at the node_modules paths they
 * have here (hoisted as npm hoisted them in this repository, where they resolve each other
 * as they will in the project), so the project gets exactly the versions this repository
 * is tested with. This repository's lockfile leaves registry URLs out
 * (omit-lockfile-registry-resolved), so `resolved` is the registry's tarball URL for the
 * name and version.
 *
 * Throws where the lockfile cannot say what npm would install: a dependency of the tarball
 * whose range is not this repository's (a stale tarball or lockfile), a package this
 * lockfile does not have, or one nested here under a package the project would not get.
 */
export function offlineLockfile(
  project: { readonly name: string; readonly version: string },
  tarball: { readonly path: string; readonly spec: string },
  others: readonly string[] = [],
): Lockfile {
  const ours = JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as Lockfile;
  const root = ours.packages[""] ?? {};
  const manifest = manifestOf(tarball.path);
  for (const [name, range] of Object.entries(manifest.dependencies ?? {}))
    if (root.dependencies?.[name] !== range)
      throw new Error(
        `${manifest.name} depends on ${name}@${range}, but package-lock.json's root has ${root.dependencies?.[name] ?? "no such dependency"}`,
      );
  const devDependencies: Record<string, string> = { [manifest.name]: tarball.spec };
  for (const name of others) {
    const range = root.devDependencies?.[name];
    if (range === undefined) throw new Error(`${name} is not a dev dependency of this repository`);
    devDependencies[name] = range;
  }

  const registry = (process.env["npm_config_registry"] ?? "https://registry.npmjs.org/").replace(/\/?$/, "/");
  const packages: Record<string, LockEntry> = {};
  const include = (from: string, entry: LockEntry): void => {
    const edges: [string, boolean][] = [
      ...Object.keys(entry.dependencies ?? {}).map((name): [string, boolean] => [name, false]),
      ...Object.keys(entry.optionalDependencies ?? {}).map((name): [string, boolean] => [name, true]),
      ...Object.keys(entry.peerDependencies ?? {}).map((name): [string, boolean] => [
        name,
        entry.peerDependenciesMeta?.[name]?.optional === true,
      ]),
    ];
    for (const [name, optional] of edges) {
      const at = resolveIn(ours, from, name);
      if (at === undefined) {
        // An optional dependency npm did not install here (another platform's binary),
        // or an optional peer nothing else needs: npm would leave it out there too.
        if (optional) continue;
        throw new Error(`package-lock.json has no ${name} for ${from === "" ? manifest.name : from}`);
      }
      if (at in packages) continue;
      const found = ours.packages[at]!;
      if (found.link === true || found.integrity === undefined || found.version === undefined)
        throw new Error(`${at} in package-lock.json is not a package from the registry`);
      const nested = at.lastIndexOf("/node_modules/");
      if (nested >= 0 && !(at.slice(0, nested) in packages))
        throw new Error(`${at} is nested under ${at.slice(0, nested)}, which the project would not get: it would have to be hoisted anew`);
      const { dev: _dev, optional: _optional, devOptional: _devOptional, peer: _peer, ...rest } = found;
      const packageName = found.name ?? at.slice(at.lastIndexOf("node_modules/") + "node_modules/".length);
      const resolved = found.resolved ?? `${registry}${packageName}/-/${packageName.split("/").pop()!}-${found.version}.tgz`;
      // Every package here is a dev dependency's; npm computes the flags again from the edges.
      packages[at] = { ...rest, resolved, dev: true };
      include(at, found);
    }
  };
  include("", { dependencies: { ...manifest.dependencies, ...Object.fromEntries(others.map((name) => [name, devDependencies[name]!])) } });

  const { name, version, license, dependencies, bin, engines } = manifest;
  const key = `node_modules/${name}`;
  if (key in packages) throw new Error(`${name} depends on itself`);
  packages[key] = {
    version,
    resolved: tarball.spec,
    integrity: integrityOf(tarball.path),
    dev: true,
    ...(license === undefined ? {} : { license }),
    ...(dependencies === undefined ? {} : { dependencies }),
    ...(bin === undefined ? {} : { bin }),
    ...(engines === undefined ? {} : { engines }),
  };
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    name: project.name,
    version: project.version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: project.name, version: project.version, devDependencies }, ...sorted },
  };
}

/** Where npm finds `name` from the package at lockfile path `from`: the nearest node_modules up its path. */
function resolveIn(lock: Lockfile, from: string, name: string): string | undefined {
  let at = from;
  for (;;) {
    const candidate = `${at === "" ? "" : `${at}/`}node_modules/${name}`;
    if (candidate in lock.packages) return candidate;
    if (at === "") return undefined;
    const nested = at.lastIndexOf("/node_modules/");
    at = nested < 0 ? "" : at.slice(0, nested);
  }
}

/**
 * Adds a tarball to the project in `dir`, which has no dependencies yet, as a dev
 * dependency, with `others` of this repository's dev dependencies: writes them into its
 * package.json, and its package-lock.json with the entries of `offlineLockfile`.
 */
export function writeOfflineInstall(dir: string, tarball: string, others: readonly string[] = []): void {
  const manifestFile = path.join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest & Readonly<Record<string, unknown>>;
  for (const field of ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"])
    if (Object.keys(manifest[field] ?? {}).length > 0) throw new Error(`${manifestFile} already has ${field}`);
  const spec = `file:${path.relative(dir, tarball).split(path.sep).join("/")}`;
  const lock = offlineLockfile(manifest, { path: tarball, spec }, others);
  writeFileSync(manifestFile, `${JSON.stringify({ ...manifest, devDependencies: lock.packages[""]!.devDependencies }, null, 2)}\n`);
  writeFileSync(path.join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
}

/**
 * `writeOfflineInstall`, then `npm ci --offline` in `dir`, with npm's default policy for
 * scripts. Resolves to npm's run.
 */
export function installOffline(dir: string, tarball: string, others: readonly string[] = []): Promise<Ran> {
  writeOfflineInstall(dir, tarball, others);
  return exec("npm", ["ci", "--offline", "--no-audit", "--no-fund"], dir, npmEnv());
}

/** A user's strict project, as TypeScript's strictest everyday options make it, for the consumers of a packed package. */
export function strictOptions(module: string, moduleResolution: string, types: readonly string[] = []): Record<string, unknown> {
  return {
    target: "es2022",
    lib: ["es2022"],
    module,
    moduleResolution,
    resolveJsonModule: true,
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types,
  };
}
