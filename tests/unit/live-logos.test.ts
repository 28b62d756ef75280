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
let generated: string;
const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://site${path}`, { headers });
const everyone = () => true;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'deals-live-logos-'));
  await mkdir(join(root, 'logos', 'deals'), { recursive: true });
  // What a build made: one deal's logo.
  generated = join(root, 'generated');
  await mkdir(join(generated, 'logos', 'deals'), { recursive: true });
  await writeFile(join(generated, 'logos', 'index.json'), JSON.stringify({ deals: ['built-deal'], startups: [] }));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('LiveLogos', () => {
  test('nothing changed: no path is answered here, the built index stands', async () => {
    const logos = new LiveLogos(root, generated);
    expect(logos.stamp).toBe('');
    for (const path of ['/', '/deals/', '/logos/deals/built-deal.webp', '/logos/index.json', '/logos/deals/x.png']) {
      expect(await changedLogo(get(path), path, logos, everyone), path).toBeUndefined();
    }
    expect(logos.has('deals', 'built-deal')).toBe(true);
    expect(logos.has('deals', 'other')).toBe(false);
  });

  test('a committed file is served as the build makes it; other paths still fall through; removed, it is a 404', async () => {
    const logos = new LiveLogos(root, generated);
    await writeFile(
      join(root, 'logos', 'deals', 'acme.png'),
      await sharp({ create: { width: 50, height: 20, channels: 3, background: '#c33' } })
        .png()
        .toBuffer(),
    );
    await logos.refresh([{ kind: 'deals', slug: 'acme' }]);
    expect(logos.stamp).not.toBe('');
    const stamp = logos.stamp;
    await logos.refresh([{ kind: 'deals', slug: 'acme' }]);
    expect(logos.stamp, 'the same image again: the same stamp (no page rendered again)').toBe(stamp);
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

    // As a draft's: neither listed nor served.
    const draft = (kind: string, slug: string) => slug !== 'acme';
    const index = (await changedLogo(get('/logos/index.json'), '/logos/index.json', logos, draft)) as Response;
    expect(await index.json()).toEqual({ deals: ['built-deal'], startups: [] });
    expect((await changedLogo(get('/logos/deals/acme.webp'), '/logos/deals/acme.webp', logos, draft))?.status).toBe(404);
    expect(await logos.current('deals', 'acme')).toBeInstanceOf(Uint8Array);
    expect(await (await changedLogo(get('/logos/index.json'), '/logos/index.json', logos, everyone))?.json()).toEqual({ deals: ['acme', 'built-deal'], startups: [] });

    await rm(join(root, 'logos', 'deals', 'acme.png'));
    await logos.refresh([{ kind: 'deals', slug: 'acme' }]);
    expect(logos.has('deals', 'acme')).toBe(false);
    expect((await changedLogo(get('/logos/deals/acme.webp'), '/logos/deals/acme.webp', logos, everyone))?.status).toBe(404);
  });

  test('a file that is no image leaves the monogram, as the build would', async () => {
    const logos = new LiveLogos(root, generated);
    await writeFile(join(root, 'logos', 'deals', 'broken.png'), 'not an image');
    await logos.refresh([{ kind: 'deals', slug: 'broken' }]);
    expect(logos.has('deals', 'broken')).toBe(false);
    expect((await changedLogo(get('/logos/deals/broken.webp'), '/logos/deals/broken.webp', logos, everyone))?.status).toBe(404);
  });
});
