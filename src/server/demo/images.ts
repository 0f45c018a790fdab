import sharp from 'sharp';
import type { Random } from './random';

// Pleasant stand-ins for phone photos: skies, hills, sea and night scenes drawn as SVG and
// rendered by sharp. No text (fonts differ between machines), only shapes and gradients.

export type Scene = 'sunset' | 'hills' | 'sea' | 'night' | 'bokeh' | 'snow';

const WIDTH = 1200;
const HEIGHT = 900;

/** Sky colours (top, middle, horizon) per scene. */
const SKIES: Record<Scene, [string, string, string][]> = {
  sunset: [
    ['#2b1055', '#d1456b', '#fbb45c'],
    ['#355c7d', '#c06c84', '#f8b195'],
    ['#0f2027', '#e96443', '#f9d423'],
  ],
  hills: [
    ['#74b9ff', '#a3d8f4', '#e8f6ff'],
    ['#89c2d9', '#c9e4ec', '#fdf6e3'],
  ],
  sea: [
    ['#1e3c72', '#5f9bd5', '#d4ecf7'],
    ['#4a6fa5', '#9cc3e4', '#fbe7c6'],
  ],
  night: [
    ['#020111', '#191970', '#3a3a8c'],
    ['#0b0c2a', '#1c2a5a', '#4b3f72'],
  ],
  bokeh: [
    ['#1a1a2e', '#3b2f63', '#7a4069'],
    ['#0f3443', '#34e89e', '#f1f7b5'],
  ],
  snow: [
    ['#9fb8cf', '#cfdde9', '#f3f7fa'],
    ['#b8c6db', '#dfe7ef', '#f5f7fa'],
  ],
};

const HILL_GREENS = ['#2d6a4f', '#40916c', '#52b788', '#74c69d', '#95d5b2'];

/** A ridge line across the picture: a closed path of random peaks around `base`. */
function ridge(random: Random, base: number, roughness: number): string {
  const points: string[] = [`M0 ${HEIGHT}`, `L0 ${base}`];
  const steps = 6 + Math.floor(random() * 6);
  for (let i = 1; i <= steps; i++) {
    const x = (WIDTH * i) / steps;
    const y = base + (random() - 0.5) * roughness;
    const cx = x - WIDTH / steps / 2;
    const cy = base + (random() - 0.5) * roughness * 1.4;
    points.push(`Q${cx.toFixed(0)} ${cy.toFixed(0)} ${x.toFixed(0)} ${y.toFixed(0)}`);
  }
  points.push(`L${WIDTH} ${HEIGHT}`, 'Z');
  return points.join(' ');
}

function sky(random: Random, scene: Scene): string {
  const options = SKIES[scene];
  const [top, middle, horizon] = options[Math.floor(random() * options.length)]!;
  return `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${top}"/><stop offset="0.55" stop-color="${middle}"/><stop offset="1" stop-color="${horizon}"/>
  </linearGradient>
  <radialGradient id="glow"><stop offset="0" stop-color="#fff7d6" stop-opacity="0.95"/><stop offset="1" stop-color="#fff7d6" stop-opacity="0"/></radialGradient>
  </defs><rect width="${WIDTH}" height="${HEIGHT}" fill="url(#sky)"/>`;
}

function sun(random: Random, y: number, r: number): string {
  const x = 200 + random() * (WIDTH - 400);
  return `<circle cx="${x.toFixed(0)}" cy="${y}" r="${r * 3}" fill="url(#glow)"/><circle cx="${x.toFixed(0)}" cy="${y}" r="${r}" fill="#fff4c2" opacity="0.95"/>`;
}

function layers(random: Random, colours: string[], from: number, roughness: number): string {
  return colours.map((fill, i) => `<path d="${ridge(random, from + i * 70, roughness)}" fill="${fill}"/>`).join('');
}

function dots(random: Random, count: number, radius: [number, number], colours: string[], opacity: [number, number], maxY = HEIGHT): string {
  return Array.from({ length: count }, () => {
    const r = radius[0] + random() * (radius[1] - radius[0]);
    const o = opacity[0] + random() * (opacity[1] - opacity[0]);
    const fill = colours[Math.floor(random() * colours.length)];
    return `<circle cx="${(random() * WIDTH).toFixed(0)}" cy="${(random() * maxY).toFixed(0)}" r="${r.toFixed(1)}" fill="${fill}" opacity="${o.toFixed(2)}"/>`;
  }).join('');
}

function waves(random: Random): string {
  return Array.from({ length: 7 }, (_, i) => {
    const y = 560 + i * 50;
    const amp = 6 + i * 3;
    let d = `M0 ${y}`;
    for (let x = 0; x <= WIDTH; x += 100) d += ` Q${x + 50} ${y + (random() > 0.5 ? amp : -amp)} ${x + 100} ${y}`;
    const shade = 60 + i * 18;
    return `<path d="${d} L${WIDTH} ${HEIGHT} L0 ${HEIGHT} Z" fill="rgb(${shade - 40},${shade + 40},${shade + 110})" opacity="0.9"/>`;
  }).join('');
}

function sceneSvg(scene: Scene, random: Random): string {
  const parts = [sky(random, scene)];
  switch (scene) {
    case 'sunset':
      parts.push(sun(random, 520, 70), layers(random, ['#5b2a4e', '#3d1c3f', '#24112b'], 560, 180));
      break;
    case 'hills':
      parts.push(sun(random, 160, 55), layers(random, HILL_GREENS.slice(random() > 0.5 ? 0 : 1).reverse(), 470, 120));
      break;
    case 'sea':
      parts.push(sun(random, 300, 60), waves(random));
      break;
    case 'night':
      parts.push(dots(random, 160, [0.8, 2.4], ['#ffffff', '#fdf2c4'], [0.4, 1], 600));
      parts.push(`<circle cx="${900 - random() * 500}" cy="180" r="48" fill="#f6f1d5"/>`, layers(random, ['#14142b', '#0a0a1a'], 640, 160));
      break;
    case 'bokeh':
      parts.push(dots(random, 45, [20, 120], ['#ffd166', '#ef476f', '#06d6a0', '#a0c4ff', '#ffffff'], [0.12, 0.45]));
      break;
    case 'snow':
      parts.push(layers(random, ['#e3ebf3', '#f2f6fa', '#ffffff'], 520, 140), dots(random, 220, [1.5, 4.5], ['#ffffff'], [0.6, 1]));
      break;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join('')}</svg>`;
}

/**
 * A JPEG as a phone would send it, camera metadata included, so the journal's own photo pipeline
 * (decode, strip metadata, thumbnail) does its usual work on it.
 */
export async function demoPhoto(scene: Scene, random: Random): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(scene, random)))
    .jpeg({ quality: 84 })
    .withExifMerge({ IFD0: { Make: 'Jotline', Model: 'Demo Camera', Software: 'jotline demo' } })
    .toBuffer();
}
