import { describe, expect, it } from 'vitest';
import { photosWouldExceedMessage } from '../../../shared/journal';
import { messages } from '../../../shared/messages';
import { selectPhotos } from './photo-rules';

const MB = 1024 * 1024;
function file(name: string, size: number, type = 'image/jpeg'): File {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

describe('photo selection', () => {
  it('accepts the allowed types, by MIME type or, without one, by extension', () => {
    const picked = [file('a.jpg', 1), file('b.png', 1, 'image/png'), file('c.gif', 1, 'image/gif'), file('d.webp', 1, 'image/webp'), file('e.jpeg', 1, '')];
    expect(selectPhotos(picked, []).accepted).toHaveLength(5);
    expect(selectPhotos([file('x.heic', 1, 'image/heic'), file('y.txt', 1, 'text/plain')], []).errors).toEqual([messages.entries.invalidFileType]);
  });

  it('counts the photos an entry already has when editing', () => {
    const result = selectPhotos([file('a.jpg', 3 * MB)], [], { count: 2, bytes: 8 * MB });
    expect(result.accepted).toHaveLength(0);
    expect(result.errors).toEqual([photosWouldExceedMessage(11 * MB, 8 * MB)]);
    expect(selectPhotos([file('a.jpg', 1)], [], { count: 10, bytes: 10 }).errors).toEqual([messages.entries.tooManyPhotos]);
  });

  it('counts photos already chosen in this form', () => {
    const chosen = Array.from({ length: 9 }, (_, i) => file(`p${i}.jpg`, 1));
    const result = selectPhotos([file('ten.jpg', 1), file('eleven.jpg', 1)], chosen);
    expect(result.accepted.map((f) => f.name)).toEqual(['ten.jpg']);
    expect(result.errors).toEqual([messages.entries.tooManyPhotos]);
  });
});
