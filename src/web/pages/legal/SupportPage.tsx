import { Link } from 'react-router';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/site';
import { JOURNAL_NUMBER_DISPLAY, JOURNAL_NUMBER_SMS_HREF } from '../../components/marketing/journalNumber';
import { LegalArticle, LegalSection } from '../../components/marketing/LegalArticle';
import { PublicLayout } from '../../components/marketing/PublicLayout';
import { pageTitle } from '../../seo/meta';
import { PageHead } from '../../seo/PageHead';

/** Every text command (DESIGN section 7) and what it does. */
const TEXT_COMMANDS: Array<[command: string, what: string]> = [
  ['UNDO', "takes your last text back out of today's entry; send it again to take out the one before."],
  ['YESTERDAY: …', "adds the rest of the text to yesterday's entry, e.g. YESTERDAY: Long walk by the river."],
  ['LINK', 'texts you a link that signs you in to the web app (it works once, for 15 minutes).'],
  ['PAUSE or PAUSE 3', 'pauses reminders, recaps and milestone texts for 7 days, or for the 1 to 30 days you name.'],
  ['RESUME', 'turns paused texts back on.'],
  ['REMIND 9pm, REMIND 21:30 or REMIND OFF', 'sets your daily reminder time, or turns it off.'],
  ['COMMANDS', 'texts you this list.'],
  ['HELP', 'sends you a short help message with our contact details.'],
  ['STOP', 'stops all texts from us. It does not cancel your subscription.'],
  ['START', 'turns texts back on after STOP.'],
];

export function SupportPage() {
  return (
    <PublicLayout>
      {/* Served from the app shell (not pre-rendered), which is noindex; say the same here. */}
      <PageHead title={pageTitle('Support')} description={`Get help with ${PRODUCT_NAME}.`} robots="noindex" />
      <LegalArticle
        eyebrow="Help"
        title="Support"
        intro={
          <p>
            Questions, problems or ideas? Write to <a className="font-medium text-brand-700 underline underline-offset-4" href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>{' '}
            and a person will get back to you.
          </p>
        }
      >
        <LegalSection id="text-keywords" title="Text commands">
          <p>
            Send these to your journal number,{' '}
            <a href={JOURNAL_NUMBER_SMS_HREF} className="whitespace-nowrap">
              {JOURNAL_NUMBER_DISPLAY}
            </a>
            :
          </p>
          <ul>
            {TEXT_COMMANDS.map(([command, what]) => (
              <li key={command}>
                <strong className="whitespace-nowrap">{command}</strong> {what}
              </li>
            ))}
          </ul>
          <p>Any other text goes into your journal, in that day's entry. Commands work in any case, on their own in a text.</p>
        </LegalSection>
        <LegalSection id="common-questions" title="Common questions">
          <ul>
            <li>
              <strong>My texts aren't showing up.</strong> Check that you're texting from the phone number on your account, and that you
              replied YES to the verification text when you signed up.
            </li>
            <li>
              <strong>I forgot my password.</strong> Use "Forgot your password?" on the <Link to="/sign-in">sign-in page</Link> and we'll
              email you a reset link.
            </li>
            <li>
              <strong>I want fewer texts.</strong> Daily prompts are optional: turn them off or change their time in your settings.
            </li>
            <li>
              <strong>How do I cancel?</strong> In your settings, at any time. Paid features stay until the end of the billing period;
              export your journal first.
            </li>
          </ul>
          <p>
            More answers are in the <a href="/#faq">FAQ</a>. For how we handle your data, read our{' '}
            <Link to="/privacy">Privacy Policy</Link>.
          </p>
        </LegalSection>
      </LegalArticle>
    </PublicLayout>
  );
}
