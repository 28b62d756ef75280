/**
 * Logos changed since the build (functions/site/live-logos.ts) on a real content folder and
 * real images: only the paths of changed logos are answered here (every other path falls through
 * to the built site), a committed file is served as the build would make it, a removed one is a
 * 404 and the monogram, and the index keeps drafts out.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { changedLogo, LiveLogos } from '../../functions/site/live-logos.ts';

let root: string;
const built = { deals: new Set(['built-deal']), startups: new Set<string>() };
const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://site${path}`, { headers });
const everyone = () => true;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'deals-live-logos-'));
  await mkdir(join(root, 'logos', 'deals'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LiveLogos', () => {
  test('nothing changed: no path is answered here, the built index stands', async () => {
    const logos = new LiveLogos(root, () => built);
    expect(logos.stamp).toBe('');
    for (const path of ['/', '/deals/', '/logos/deals/built-deal.webp', '/logos/index.json', '/logos/deals/x.png']) {
      expect(await changedLogo(get(path), path, logos, everyone), path).toBeUndefined();
    }
    expect(logos.has('deals', 'built-deal')).toBe(true);
    expect(logos.has('deals', 'other')).toBe(false);
  });

  test('a committed file is served as the build makes it; other paths still fall through; removed, it is a 404', async () => {
    const logos = new LiveLogos(root, () => built);
    await writeFile(
      join(root, 'logos', 'deals', 'acme.png'),
      await sharp({ create: { width: 50, height: 20, channels: 3, background: '#c33' } })
        .png()
        .toBuffer(),
    );
    await logos.refresh([{ kind: 'deals', slug: 'acme' }]);
    expect(logos.stamp).not.toBe('');
    expect(logos.changed('deals', 'acme')).toBe(true);
    expect(logos.has('deals', 'acme')).toBe(true);
    for (const path of ['/', '/deals/', '/deals/acme/', '/logos/deals/built-deal.webp']) {
      expect(await changedLogo(get(path), path, logos, everyone), path).toBeUndefined();
    }
    const image = (await changedLogo(get('/logos/deals/acme.webp'), '/logos/deals/acme.webp', logos, everyone)) as Response;
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toBe('public, no-cache');
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
    const again = (await changedLogo(get('/logos/deals/acme.webp', { 'If-None-Match': image.headers.get('etag') ?? '' }), '/logos/deals/acme.webp', logos, everyone)) as Response;
    expect(again.status).toBe(304);

    const index = (await changedLogo(get('/logos/index.json'), '/logos/index.json', logos, (kind, slug) => slug !== 'acme')) as Response;
    expect(await index.json()).toEqual({ deals: ['built-deal'], startups: [] });
    expect(await (await changedLogo(get('/logos/index.json'), '/logos/index.json', logos, everyone))?.json()).toEqual({ deals: ['acme', 'built-deal'], startups: [] });

    await rm(join(root, 'logos', 'deals', 'acme.png'));
    await logos.refresh([{ kind: 'deals', slug: 'acme' }]);
    expect(logos.has('deals', 'acme')).toBe(false);
    expect((await changedLogo(get('/logos/deals/acme.webp'), '/logos/deals/acme.webp', logos, everyone))?.status).toBe(404);
  });

  test('a file that is no image leaves the monogram, as the build would', async () => {
    const logos = new LiveLogos(root, () => built);
    await writeFile(join(root, 'logos', 'deals', 'broken.png'), 'not an image');
    await logos.refresh([{ kind: 'deals', slug: 'broken' }]);
    expect(logos.has('deals', 'broken')).toBe(false);
    expect((await changedLogo(get('/logos/deals/broken.webp'), '/logos/deals/broken.webp', logos, everyone))?.status).toBe(404);
  });
});
