/**
 * Import and export of a documentation repository in the git sync layout: a generated
 * folder of 1,000 pages and 500 images, read from disk, planned and written into a
 * branch document, then exported back to a folder and packed. Printed beside the time
 * to read the same files from disk, measured in the same run.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as Y from 'yjs';
import { CONTENT_DEFAULTS } from '../sync-server/src/core/content/config';
import { packZip } from '../sync-server/src/core/content/export/archive';
import { exportBranchAsMarkdown } from '../sync-server/src/core/content/export/markdown';
import { applyPlan } from '../sync-server/src/core/content/import/plan';
import { planRepository } from '../sync-server/src/core/content/import/repository';
import { parseSummary } from '../sync-server/src/core/content/import/summary';
import { generatedRepository } from '../sync-server/src/testing/docsRepository';

const PAGES = Number(process.env.REPO_BENCH_PAGES ?? 1000);
const IMAGES = Number(process.env.REPO_BENCH_IMAGES ?? 500);
const IMAGE_BYTES = Number(process.env.REPO_BENCH_IMAGE_BYTES ?? 40_000);

/** Runs `fn`, sampling the resident set meanwhile: its time and the highest RSS seen. */
async function measured<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, ms, peakMb: peak / 1024 / 1024 };
}

export async function runRepositoryBench() {
  const files = generatedRepository({ pages: PAGES, images: IMAGES, imageBytes: IMAGE_BYTES });
  const dir = mkdtempSync(join(tmpdir(), 'quire-repo-bench-'));
  try {
    let bytes = 0;
    for (const [path, data] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), data);
      bytes += data.byteLength;
    }
    const paths = Object.keys(files);
    const mb = bytes / 1024 / 1024;
    console.log(`Repository of ${PAGES} pages and ${IMAGES} images (${paths.length} files, ${mb.toFixed(1)} MB), in-process, no database:`);

    const read = await measured(async () => {
      let n = 0;
      for (const path of paths) n += (await readFile(join(dir, path))).byteLength;
      return n;
    });
    const source = {
      read: async (path: string) =>
        readFile(join(dir, path)).then(
          (b) => new Uint8Array(b),
          () => undefined,
        ),
    };
    const imported = await measured(async () => {
      const toc = parseSummary(readFileSync(join(dir, 'SUMMARY.md'), 'utf8'));
      const plan = await planRepository(source, toc, { ...CONTENT_DEFAULTS, importMaxPages: PAGES * 2 });
      const doc = new Y.Doc();
      applyPlan(doc, plan);
      return { doc, plan };
    });
    const { doc, plan } = imported.result;
    const blobs = new Map(plan.files.map((f) => [f.id, f.bytes]));
    const exported = await measured(async () => {
      const out = await exportBranchAsMarkdown(doc, async (file) => blobs.get(file.id));
      const zip = packZip(out);
      return { count: out.size, zip: zip.byteLength };
    });
    const row = (label: string, m: { ms: number; peakMb: number }) =>
      console.log(
        `  ${label.padEnd(34)} ${m.ms.toFixed(0).padStart(6)} ms   ${((PAGES / m.ms) * 1000).toFixed(0).padStart(6)} pages/s   ${((mb / m.ms) * 1000).toFixed(1).padStart(6)} MB/s   peak RSS ${m.peakMb.toFixed(0)} MB   ×${(m.ms / read.ms).toFixed(1)} the disk read`,
      );
    row('read the files from disk', read);
    row(`import (${plan.pages.length} pages, ${plan.files.length} files)`, imported);
    row(`export + zip (${exported.result.count} files)`, exported);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runRepositoryBench();
}
