import { PRODUCT_NAME, siteUrl } from '../../shared/site';
import { ROBOTS, SHARE_IMAGE, STATIC_HEAD_ATTRIBUTE, type PageMeta } from './meta';

type TagAttributes = Record<string, string>;

/** The page's <meta> and <link> tags, in order, as plain attributes. */
function tagList({ title, description, path, keywords, robots = 'index' }: PageMeta): Array<['meta' | 'link', TagAttributes]> {
  const tags: Array<['meta' | 'link', TagAttributes]> = [];
  if (description) tags.push(['meta', { name: 'description', content: description }]);
  if (keywords && keywords.length > 0) tags.push(['meta', { name: 'keywords', content: keywords.join(', ') }]);
  tags.push(['meta', { name: 'robots', content: ROBOTS[robots] }]);
  if (path === undefined) return tags;

  const url = siteUrl(path);
  const image = siteUrl(SHARE_IMAGE.path);
  tags.push(['link', { rel: 'canonical', href: url }]);
  const og: TagAttributes = {
    'og:type': 'website',
    'og:site_name': PRODUCT_NAME,
    'og:title': title,
    ...(description && { 'og:description': description }),
    'og:url': url,
    'og:image': image,
    'og:image:width': String(SHARE_IMAGE.width),
    'og:image:height': String(SHARE_IMAGE.height),
    'og:image:alt': SHARE_IMAGE.alt,
  };
  for (const [property, content] of Object.entries(og)) tags.push(['meta', { property, content }]);
  const twitter: TagAttributes = {
    'twitter:card': 'summary_large_image',
    'twitter:title': title,
    ...(description && { 'twitter:description': description }),
    'twitter:image': image,
    'twitter:image:alt': SHARE_IMAGE.alt,
  };
  for (const [name, content] of Object.entries(twitter)) tags.push(['meta', { name, content }]);
  return tags;
}

/** The page's <meta> and <link> tags; React 19 hoists them into <head>. */
export function MetaTags({ isStatic = false, ...meta }: PageMeta & { isStatic?: boolean }) {
  const mark = isStatic ? { [STATIC_HEAD_ATTRIBUTE]: '' } : {};
  return tagList(meta).map(([tag, attributes]) => {
    // name, property and rel are each unique within one page's tags.
    const key = attributes.name ?? attributes.property ?? attributes.rel;
    return tag === 'link' ? <link key={key} {...attributes} {...mark} /> : <meta key={key} {...attributes} {...mark} />;
  });
}

/** The <head> the build writes for a pre-rendered page: the same tags the browser renders, plus the title. */
export function StaticHeadTags(meta: PageMeta) {
  return (
    <>
      <title>{meta.title}</title>
      <MetaTags {...meta} isStatic />
    </>
  );
}
