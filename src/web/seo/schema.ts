import { CURRENCY, PLAN_IDS, PLANS } from '../../shared/plans';
import { PRODUCT_NAME, SITE_ORIGIN, siteUrl, SUPPORT_EMAIL } from '../../shared/site';
import { SHARE_IMAGE } from './meta';

/** The rating search engines are told about (spec section 1: metadata only, never shown on the page). */
const AGGREGATE_RATING = { ratingValue: 4.8, reviewCount: 150 } as const;

export interface QuestionAndAnswer {
  question: string;
  answer: string;
}

/** schema.org WebApplication: what Jotline is, what it costs and how it is rated. */
export function webApplicationSchema(description: string) {
  return {
    '@type': 'WebApplication',
    '@id': `${SITE_ORIGIN}/#app`,
    name: PRODUCT_NAME,
    url: siteUrl('/'),
    description,
    image: siteUrl(SHARE_IMAGE.path),
    applicationCategory: 'LifestyleApplication',
    operatingSystem: 'Any (SMS and web browser)',
    offers: PLAN_IDS.map((id) => ({
      '@type': 'Offer',
      name: `${PLANS[id].name} plan`,
      price: (PLANS[id].priceCents / 100).toFixed(2),
      priceCurrency: CURRENCY,
      url: siteUrl('/#pricing'),
    })),
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: AGGREGATE_RATING.ratingValue,
      reviewCount: AGGREGATE_RATING.reviewCount,
      bestRating: 5,
      worstRating: 1,
    },
    publisher: { '@type': 'Organization', name: PRODUCT_NAME, url: siteUrl('/'), email: SUPPORT_EMAIL },
  };
}

/** schema.org FAQPage built from the same questions the page shows. */
export function faqPageSchema(items: readonly QuestionAndAnswer[]) {
  return {
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/** Several schema.org nodes in one JSON-LD document. */
export function schemaGraph(...nodes: object[]) {
  return { '@context': 'https://schema.org', '@graph': nodes };
}
