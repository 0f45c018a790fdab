import type { QuestionAndAnswer } from '../../seo/schema';

/** The landing page's FAQ, also published as FAQPage structured data: keep answers true to the product. */
export const faqItems: readonly QuestionAndAnswer[] = [
  {
    question: 'How does the free trial work?',
    answer:
      'Every new account starts with a 10-day free trial with everything included. No credit card required. When the trial ends, choose the monthly or yearly plan to keep journaling.',
  },
  {
    question: 'Do I have to get daily prompts?',
    answer:
      'No. Daily prompts and reminders are optional. Pick the time that suits you, or turn them off in settings whenever you like. You can text your journal any time either way.',
  },
  {
    question: 'What if I text my journal several times a day?',
    answer:
      'Send as many texts as you like. Everything you send on the same day is combined into one daily entry, in the order you sent it, so each day reads as a single page.',
  },
  {
    question: 'Can I add photos?',
    answer:
      'Yes. Send a photo by MMS, with or without words, and it is saved with that day\'s entry. You can also add photos to an entry on the web.',
  },
  {
    question: 'Who can read my journal?',
    answer:
      'Only you. Entries are encrypted at rest and in transit, and only your account can read them. We never share or sell your data or your phone number, and there are no ads.',
  },
  {
    question: 'Can I export my journal?',
    answer:
      'Any time. Download your whole journal, or a range of dates, as a PDF or a plain text file from the web app. Your words are always yours to keep.',
  },
  {
    question: 'How do I cancel my subscription?',
    answer:
      'You can cancel any time in settings. Your paid features stay available until the end of the current billing period. After that your entries are no longer accessible, so we recommend exporting your journal first.',
  },
  {
    question: 'How do I stop the text messages?',
    answer:
      'Reply STOP to your journal number, or turn off daily messages in settings. Either one stops the texts but does not cancel your subscription; to cancel, use settings. Text START to resume messages.',
  },
];
