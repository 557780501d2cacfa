/** Largest side of an image kept in a page; larger pictures are scaled down. */
const MAX_SIDE = 1600;
/** Pictures already this small are kept byte for byte. */
const KEEP_BELOW_BYTES = 300 * 1024;
/** Refused above this, even after scaling (it would weigh on every sync of the page). */
const MAX_BYTES = 4 * 1024 * 1024;

export class ImageTooLargeError extends Error {}

function readAsDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * An image file as a data URL to store in the page itself: it then works offline and
 * reaches every collaborator with the page's sync, with no upload step. Large photos are
 * scaled down (and re-encoded) first so pages stay light.
 */
export async function imageFileToDataUrl(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new Error(`${file.name} is not an image.`);
  if (file.size <= KEEP_BELOW_BYTES || file.type === 'image/svg+xml' || file.type === 'image/gif') {
    if (file.size > MAX_BYTES) throw new ImageTooLargeError(`${file.name} is larger than 4 MB.`);
    return readAsDataUrl(file);
  }
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, 0.85));
  if (!blob) throw new Error(`${file.name} could not be converted.`);
  if (blob.size > MAX_BYTES) throw new ImageTooLargeError(`${file.name} is still larger than 4 MB once scaled down.`);
  return readAsDataUrl(blob);
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
