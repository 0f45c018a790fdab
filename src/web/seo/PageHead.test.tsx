import { render } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { pageTitle } from './meta';
import { PageHead } from './PageHead';

describe('PageHead', () => {
  beforeEach(() => {
    document.head.innerHTML = '';
  });

  it('lets a page keep itself out of search results', () => {
    render(<PageHead title={pageTitle('Sign in')} robots="noindex" />);
    expect(document.title).toBe('Sign in · Jotline');
    expect(document.head.querySelectorAll('meta[name="robots"]')).toHaveLength(1);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
  });

  it('gives the document back its plain title when the page goes away', () => {
    const { unmount } = render(<PageHead title={pageTitle('Privacy Policy')} path="/privacy" />);
    expect(document.title).toBe('Privacy Policy · Jotline');
    unmount();
    expect(document.title).toBe('Jotline');
    expect(document.head.querySelector('link[rel="canonical"]')).toBeNull();
  });

  it('replaces the head tags that came with the HTML, so nothing appears twice', () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      '<title>Jotline</title><meta name="robots" content="noindex, nofollow" data-static-head>',
    );
    render(<PageHead title="Jotline: The easiest way to keep a journal" path="/" />);
    expect(document.head.querySelectorAll('title')).toHaveLength(1);
    expect(document.title).toBe('Jotline: The easiest way to keep a journal');
    expect([...document.head.querySelectorAll('meta[name="robots"]')].map((meta) => meta.getAttribute('content'))).toEqual([
      'index, follow',
    ]);
  });
});
