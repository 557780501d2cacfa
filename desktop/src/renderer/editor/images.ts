/** Largest side of an image kept in a page; larger pictures are scaled down. */
const MAX_SIDE = 1600;
/** Pictures already this small are kept byte for byte. */
const KEEP_BELOW_BYTES = 300 * 1024;
/** Refused above this, even after scaling: the server's default upload limit. */
const MAX_BYTES = 25 * 1024 * 1024;

export class ImageTooLargeError extends Error {}

export interface PreparedImage {
  blob: Blob;
  width?: number;
  height?: number;
}

/**
 * An image file made ready to keep as a space file: large photos are scaled down (and
 * re-encoded) first so pages stay quick to open; small pictures, SVG and GIF are kept
 * byte for byte.
 */
export async function prepareImage(file: File): Promise<PreparedImage> {
  if (!file.type.startsWith('image/')) throw new Error(`${file.name} is not an image.`);
  const bitmap = await createImageBitmap(file).catch(() => null);
  if (!bitmap || file.size <= KEEP_BELOW_BYTES || file.type === 'image/svg+xml' || file.type === 'image/gif') {
    bitmap?.close();
    if (file.size > MAX_BYTES) throw new ImageTooLargeError(`${file.name} is larger than ${MAX_BYTES / 1024 / 1024} MB.`);
    return { blob: file, width: bitmap?.width || undefined, height: bitmap?.height || undefined };
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.85));
  if (!blob) throw new Error(`${file.name} could not be converted.`);
  if (blob.size > MAX_BYTES)
    throw new ImageTooLargeError(`${file.name} is still larger than ${MAX_BYTES / 1024 / 1024} MB once scaled down.`);
  return { blob, width: canvas.width, height: canvas.height };
}

/** Opens the file picker for any file (attachments). */
export function pickFiles(): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.onchange = () => resolve([...(input.files ?? [])]);
    input.click();
  });
}

/** Opens the file picker for images. */
export function pickImageFiles(): Promise<File[]> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = 'image/*';
    input.multiple = true;
    input.onchange = () => resolve([...(input.files ?? [])]);
    input.click();
  });
}
