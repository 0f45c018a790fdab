// The journal PDF's page and photo layout, for its one renderer (src/shared/pdf.ts), which the server
// runs in its PDF workers and the browser for a Vault journal.

/** Letter, in points, with an inch of margin all round. */
export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
export const MARGIN = 72;
export const COLORS = { ink: '#1f2937', muted: '#6b7280', accent: '#4f46e5', rule: '#e5e7eb' } as const;
export const PHOTO_GAP = 8;
export const PHOTO_CELL_MAX_HEIGHT = 200;
const PHOTO_MAX_HEIGHT = 320;

/** Where one photo goes, relative to the top left of its row. */
export interface PhotoPlacement {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Photos per row: one alone, two side by side (also for four), otherwise three. */
const photoColumns = (count: number) => (count <= 1 ? 1 : count === 2 || count === 4 ? 2 : 3);

/** The widest a photo is embedded, in pixels: a grid cell needs far fewer than a whole line. */
export const photoPixels = (count: number) => (photoColumns(count) === 1 ? 1200 : 700);

/**
 * Lays photos out in rows of up to three, each scaled to fit its cell (never enlarged) and centred
 * in it; a row is as tall as its tallest photo. A lone photo keeps the full width, at most
 * PHOTO_MAX_HEIGHT tall.
 */
export function photoGrid(sizes: ReadonlyArray<{ width: number; height: number }>, areaWidth: number): Array<{ height: number; photos: PhotoPlacement[] }> {
  const columns = photoColumns(sizes.length);
  const cellWidth = (areaWidth - PHOTO_GAP * (columns - 1)) / columns;
  const cellHeight = columns === 1 ? PHOTO_MAX_HEIGHT : Math.min(cellWidth, PHOTO_CELL_MAX_HEIGHT);
  const rows: Array<{ height: number; photos: PhotoPlacement[] }> = [];
  for (let start = 0; start < sizes.length; start += columns) {
    const scaled = sizes.slice(start, start + columns).map((size) => {
      const scale = Math.min(cellWidth / size.width, cellHeight / size.height, 1);
      return { width: size.width * scale, height: size.height * scale };
    });
    const height = Math.max(...scaled.map((p) => p.height));
    // A short last row is centred under the rows above it.
    const offset = ((columns - scaled.length) * (cellWidth + PHOTO_GAP)) / 2;
    const photos = scaled.map((p, i) => ({
      x: offset + i * (cellWidth + PHOTO_GAP) + (cellWidth - p.width) / 2,
      y: (height - p.height) / 2,
      width: p.width,
      height: p.height,
    }));
    rows.push({ height, photos });
  }
  return rows;
}
