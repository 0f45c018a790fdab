import { describe, expect, it } from 'vitest';
import { messages } from '../shared/messages';
import { NOT_FOUND_PAGE_FILE } from '../shared/routes';
import { appShellPlaceholder, prerender } from './prerender';

describe('prerender', () => {
  it('renders the public pages, sign-up and the 404 page to the files the server serves', async () => {
    const pages = await prerender();
    expect(pages.map((page) => [page.file, page.runsApp])).toEqual([
      ['prerendered/index.html', false],
      ['prerendered/privacy.html', false],
      ['prerendered/terms.html', false],
      ['prerendered/support.html', false],
      ['prerendered/sign-up.html', true],
      [NOT_FOUND_PAGE_FILE, false],
    ]);
  });

  it('renders the 404 page kept out of search results', async () => {
    const notFound = (await prerender()).find((page) => page.file === NOT_FOUND_PAGE_FILE)!;
    expect(notFound.head).toContain('<meta name="robots" content="noindex, nofollow"');
    expect(notFound.html).toContain(messages.notFound.heading);
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

  it('pre-renders the sign-up form with its description and a note for browsers without JavaScript', async () => {
    const signUp = (await prerender()).find((page) => page.file === 'prerendered/sign-up.html');
    expect(signUp!.head).toContain('<title>Create your account · Jotline</title>');
    expect(signUp!.head).toContain(`<meta name="description" content="${messages.signUp.metaDescription}"`);
    expect(signUp!.head).toContain('<link rel="canonical" href="https://jotline.app/sign-up"');
    expect(signUp!.html).toContain('Create Account');
    expect(signUp!.html).toMatch(/<input[^>]*type="email"/);
    const noscript = /<noscript>(.*?)<\/noscript>/s.exec(signUp!.html);
    expect(noscript?.[1]).toContain(messages.signUp.noScript);
    // Typing before the app takes over would be lost: the fields wait for it.
    expect(signUp!.html).toMatch(/<fieldset[^>]*disabled/);
  });

  it('gives the app shell a loading state to paint before the app has loaded', () => {
    const html = appShellPlaceholder();
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading...');
  });
});
