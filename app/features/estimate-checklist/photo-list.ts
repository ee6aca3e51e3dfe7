/** Photos added to the list, and the names of those skipped as already there (same name and size). */
export function mergePhotos(current: readonly File[], added: readonly File[]): { photos: File[]; skipped: string[] } {
  const photos = [...current];
  const skipped: string[] = [];
  for (const file of added) {
    const present = photos.some((photo) => photo.name === file.name && photo.size === file.size);
    if (present) skipped.push(file.name);
    else photos.push(file);
  }
  return { photos, skipped };
}
