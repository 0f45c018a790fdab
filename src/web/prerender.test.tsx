import { describe, expect, it } from 'vitest';
import { prerender } from './prerender';

describe('prerender', () => {
  it('renders the landing and privacy pages to the files the server serves', async () => {
    const pages = await prerender();
    expect(pages.map((page) => page.file)).toEqual(['prerendered/index.html', 'prerendered/privacy.html']);
  });

  it('puts the landing metadata in the head and the hero and structured data in the page', async () => {
    const [landing] = await prerender();
    expect(landing!.head).toContain('<title>Jotline: The easiest way to keep a journal</title>');
    expect(landing!.head).toMatch(/<meta name="description" content="Keep a journal by text message[^"]*"/);
    expect(landing!.head).toContain('<link rel="canonical" href="https://jotline.app/"');
    expect(landing!.head).toContain('<meta name="robots" content="index, follow"');
    expect(landing!.head).toContain('<meta property="og:image" content="https://jotline.app/og-image.png"');
    expect(landing!.head).toContain('<meta name="twitter:card" content="summary_large_image"');

    expect(landing!.html).toContain('The easiest way to keep a journal');
    expect(landing!.html).not.toContain('<title');
    const match = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(landing!.html);
    const graph = JSON.parse(match![1]!)['@graph'];
    const app = graph.find((node: { '@type': string }) => node['@type'] === 'WebApplication');
    expect(app.aggregateRating).toMatchObject({ ratingValue: 4.8, reviewCount: 150 });
    expect(app.offers.map((offer: { price: string; priceCurrency: string }) => [offer.price, offer.priceCurrency])).toEqual([
      ['5.99', 'USD'],
      ['49.99', 'USD'],
    ]);
    const faq = graph.find((node: { '@type': string }) => node['@type'] === 'FAQPage');
    expect(faq.mainEntity).toHaveLength(8);
  });

  it('gives the privacy page its own title and canonical address', async () => {
    const [, privacy] = await prerender();
    expect(privacy!.head).toContain('<title>Privacy Policy · Jotline</title>');
    expect(privacy!.head).toContain('<link rel="canonical" href="https://jotline.app/privacy"');
    expect(privacy!.html).toContain('June 23, 2025');
  });
});
