// Sizes as a reader sees them: a file's size, a column's width as a step of the grid.

/** A byte count in B, KB, MB or GB. */
export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/** A column width as one of the grid's steps (the CSP allows no inline styles). */
export function widthClass(width: unknown): string | undefined {
  const n = typeof width === 'number' ? width : Number.parseFloat(String(width ?? ''));
  if (!Number.isFinite(n) || n <= 0 || n >= 100) return undefined;
  const steps = [20, 25, 33, 40, 50, 60, 67, 75, 80];
  const nearest = steps.reduce((a, b) => (Math.abs(b - n) < Math.abs(a - n) ? b : a));
  return `w-${nearest}`;
}

/** An image's width in pixels, as the content model keeps it: written in HTML (`"400"`), or a number from older clients; never a percentage. */
export function pixelWidth(width: unknown): number | undefined {
  const n = typeof width === 'number' ? width : /^\d+(\.\d+)?$/.test(String(width ?? '').trim()) ? Number(width) : Number.NaN;
  return n > 0 ? Math.round(n) : undefined;
}
