import { Link } from 'react-router';
import { formatUsd, PLANS } from '../../../shared/plans';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../../shared/site';
import { LegalArticle, LegalSection } from '../../components/marketing/LegalArticle';
import { PublicLayout } from '../../components/marketing/PublicLayout';
import { pageTitle } from '../../seo/meta';
import { PageHead } from '../../seo/PageHead';

export function TermsPage() {
  return (
    <PublicLayout>
      {/* Served from the app shell (not pre-rendered), which is noindex; say the same here. */}
      <PageHead title={pageTitle('Terms of Service')} description={`The terms for using ${PRODUCT_NAME}.`} robots="noindex" />
      <LegalArticle
        eyebrow="Legal"
        title="Terms of Service"
        effective="June 23, 2025"
        intro={<p>These terms cover your use of {PRODUCT_NAME}, on the web and by text message. By creating an account you agree to them.</p>}
      >
        <LegalSection id="the-service" title="The service">
          <p>
            {PRODUCT_NAME} saves the texts and photos you send to your journal number as journal entries, and lets you read, search,
            edit and export them on the web. Journaling by text needs a US mobile number.
          </p>
        </LegalSection>
        <LegalSection id="trial-and-billing" title="Free trial and billing">
          <ul>
            <li>Every new account starts with a 10-day free trial. No credit card is required.</li>
            <li>
              After the trial, journaling needs a subscription: {formatUsd(PLANS.monthly.priceCents)} per month or{' '}
              {formatUsd(PLANS.yearly.priceCents)} per year, billed in advance and renewing automatically until you cancel.
            </li>
            <li>
              You can cancel at any time in your settings. Paid features stay available until the end of the current billing period;
              after that your entries are no longer accessible, so export your journal first.
            </li>
          </ul>
        </LegalSection>
        <LegalSection id="sms-terms" title="Text message terms">
          <ul>
            <li>By giving us your number and agreeing to texts, you agree to receive journal prompts, reminders and account messages from {PRODUCT_NAME}.</li>
            <li>Msg frequency varies, up to 2 msgs/day. Msg &amp; data rates may apply.</li>
            <li>Reply STOP to opt out and START to opt back in. Reply HELP for help, or write to {SUPPORT_EMAIL}.</li>
            <li>Opting out of texts does not cancel your subscription.</li>
            <li>Carriers are not liable for delayed or undelivered messages. Consent to texts is not a condition of purchase.</li>
          </ul>
        </LegalSection>
        <LegalSection id="your-content" title="Your journal is yours">
          <p>
            You own what you write. We store it only to provide the service, as described in our{' '}
            <Link to="/privacy">Privacy Policy</Link>, and you can export it at any time.
          </p>
        </LegalSection>
        <LegalSection id="acceptable-use" title="Acceptable use">
          <p>
            Do not use {PRODUCT_NAME} to break the law, to send messages on someone else's behalf, or to disrupt the service. We may
            suspend accounts that do.
          </p>
        </LegalSection>
        <LegalSection id="changes" title="Changes and contact">
          <p>
            We may update these terms; we will post the new version here and tell you of material changes before they apply.
            Questions? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
          </p>
        </LegalSection>
      </LegalArticle>
    </PublicLayout>
  );
}
