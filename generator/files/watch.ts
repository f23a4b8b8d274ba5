import type { FSWatcher } from "node:fs";
import { watch } from "node:fs";
import path from "node:path";

/** Files watched for changes; the set can be replaced as what a generation reads changes. */
export interface FileWatch {
  /** Watches these files (real paths) from now on, and no others. */
  watch(files: Iterable<string>): void;
  close(): void;
}

/**
 * Calls `changed` with the files that changed, once a burst of changes has settled for
 * `settleMs`. Each file's folder is watched rather than the file: an editor that saves by
 * writing a new file and renaming it over the old one replaces the file a watch would
 * hold, and a file deleted and made again is seen. A folder that cannot be watched is
 * skipped: its files are then not watched, and the rest are.
 */
export function watchFiles(changed: (files: readonly string[]) => void, settleMs = 100): FileWatch {
  const watchers = new Map<string, FSWatcher>();
  let wanted = new Set<string>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const settle = () => {
    timer = undefined;
    const files = [...pending].sort();
    pending = new Set();
    if (files.length > 0) changed(files);
  };
  return {
    watch(files) {
      wanted = new Set(files);
      const folders = new Set([...wanted].map((file) => path.dirname(file)));
      for (const [folder, watcher] of watchers)
        if (!folders.has(folder)) {
          watcher.close();
          watchers.delete(folder);
        }
      for (const folder of folders) {
        if (watchers.has(folder)) continue;
        try {
          const watcher = watch(folder, { persistent: true }, (_event, name) => {
            // Without a name the platform does not say which file: every watched file of the folder may have.
            const touched = name === null ? [...wanted].filter((file) => path.dirname(file) === folder) : [path.join(folder, name)];
            for (const file of touched) if (wanted.has(file)) pending.add(file);
            if (pending.size === 0) return;
            clearTimeout(timer);
            timer = setTimeout(settle, settleMs);
          });
          watcher.on("error", () => {
            watcher.close();
            watchers.delete(folder);
          });
          watchers.set(folder, watcher);
        } catch {
          // The folder is gone or cannot be read: its files are watched again when a generation names them and it is back.
        }
      }
    },
    close() {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
