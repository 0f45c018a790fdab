import { Activity, AlertTriangle, CheckCircle2, Gauge, MessageSquare, Play, RefreshCw, Stethoscope, Timer, XCircle } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { toast } from 'sonner';
import { CARD_PREVIEW_LENGTH, previewText, RESULT_PREVIEW_LENGTH, type SmsTestLog, type SmsTestResponse, type SmsTestType } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Input } from '../../components/ui/Input';
import { AdminShell, InlineError, Panel, StatCard } from '../../features/admin/AdminShell';
import { formatDateTime, formatNumber, formatPercent, parseTestResult, TEST_MESSAGES } from '../../features/admin/format';
import { useRunSmsTest, useSmsHealth, useSmsTests } from '../../features/admin/queries';
import { PageHead } from '../../seo/PageHead';

const text = messages.admin;

function reportTest(result: SmsTestResponse) {
  if (result.success && result.summary) {
    const { passedSteps, totalSteps, entryCreated } = result.summary;
    toast.success(text.testCompleteTitle, {
      description: `${passedSteps}/${totalSteps} steps passed, entry ${entryCreated ? 'would be created' : 'failed'} (dry run)`,
    });
    return;
  }
  const failedStep = result.steps?.find((step) => !step.success);
  toast.error(text.testFailedTitle, { description: failedStep?.message || result.error || text.testUnknownError });
}

/** /admin/sms-testing */
export function AdminSmsTestingPage() {
  const health = useSmsHealth();
  const tests = useSmsTests();
  const runTest = useRunSmsTest();
  const [phone, setPhone] = useState('');
  const [runningType, setRunningType] = useState<SmsTestType | null>(null);
  const [checking, setChecking] = useState(false);

  async function onHealthCheck() {
    setChecking(true);
    try {
      const { data, isError } = await health.refetch();
      if (isError || !data) throw new Error('health');
      if (data.overall_status === 'healthy') {
        toast.success(text.systemHealthy, { description: `${data.checks_passed} checks passed` });
      } else {
        toast.error(text.systemIssues, { description: `${data.checks_failed} checks failed, ${data.checks_passed} passed` });
      }
    } catch {
      toast.error(text.healthCheckFailedTitle, { description: text.healthCheckFailed });
    } finally {
      setChecking(false);
    }
  }

  async function onTest(type: SmsTestType, content: string) {
    if (!phone.trim()) {
      toast.error(text.phoneRequiredTitle, { description: text.phoneRequired });
      return;
    }
    setRunningType(type);
    try {
      reportTest(await runTest.mutateAsync({ testType: type, phoneNumber: phone.trim(), messageContent: content }));
    } catch {
      toast.error(text.testErrorTitle, { description: text.testError });
    } finally {
      setRunningType(null);
    }
  }

  const stats = health.data?.stats;
  const refreshing = (health.isFetching || tests.isFetching) && !checking;

  return (
    <AdminShell
      title="SMS Testing"
      subtitle="Rehearse texts through the SMS pipeline (dry runs) and watch its health"
      back
      actions={
        <>
          <Button variant="secondary" size="sm" onClick={onHealthCheck} loading={checking}>
            {!checking && <Stethoscope aria-hidden="true" className="size-4" />}
            Health Check
          </Button>
          <Button
            variant="secondary"
            size="sm"
            loading={refreshing}
            onClick={() => {
              void health.refetch();
              void tests.refetch();
            }}
          >
            {!refreshing && <RefreshCw aria-hidden="true" className="size-4" />}
            Refresh
          </Button>
        </>
      }
    >
      <PageHead title="SMS testing · Admin · Jotline" robots="noindex" />
      {health.isError && <InlineError>{text.healthCheckFailed}</InlineError>}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard label="Messages (24h)" value={formatNumber(stats?.messages24h)} icon={MessageSquare} tone="brand" loading={health.isPending} />
        <StatCard label="Success Rate" value={formatPercent(stats?.successRate)} icon={Gauge} tone="emerald" loading={health.isPending} />
        <StatCard
          label="Avg Processing"
          hint="Measured over 24 hours"
          value={stats?.avgProcessingMs == null ? '—' : `${formatNumber(stats.avgProcessingMs)} ms`}
          icon={Timer}
          tone="default"
          loading={health.isPending}
        />
        <StatCard
          label="Recent Errors"
          value={formatNumber(stats?.recentErrors.length)}
          hint={stats?.recentErrors[0] ? previewText(stats.recentErrors[0].error, 60) : undefined}
          icon={AlertTriangle}
          tone="red"
          loading={health.isPending}
        />
      </div>

      <Tabs.Root defaultValue="testing" className="space-y-4">
        <Tabs.List aria-label="SMS testing" className="inline-flex rounded-lg border border-stone-200 bg-white p-1 shadow-xs">
          {[
            { value: 'testing', label: 'Message Testing' },
            { value: 'results', label: 'Test Results' },
          ].map((tab) => (
            <Tabs.Trigger
              key={tab.value}
              value={tab.value}
              className="rounded-md px-3 py-1.5 text-sm font-medium text-stone-600 hover:text-ink data-[state=active]:bg-brand-700 data-[state=active]:text-white"
            >
              {tab.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        <Tabs.Content value="testing" className="space-y-4">
          <Panel>
            <label htmlFor="sms-test-phone" className="block text-sm font-medium text-stone-700">
              Test Phone Number
            </label>
            <Input
              id="sms-test-phone"
              type="tel"
              autoComplete="off"
              placeholder="+12025550123"
              value={phone}
              onChange={(event) => setPhone(event.target.value)}
              className="mt-1.5 max-w-xs"
              aria-describedby="sms-test-phone-help"
            />
            <p id="sms-test-phone-help" className="mt-1 text-xs text-stone-500">
              The number of an existing account. Each test is a dry run: it takes every step a real text takes, then all of it is
              undone, so nothing reaches the journal and nothing is texted.
            </p>
          </Panel>
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
            {TEST_MESSAGES.map((message) => (
              <Panel key={message.type} aria-labelledby={`test-${message.type}`} className="flex flex-col">
                <div className="flex items-start justify-between gap-2">
                  <div>
                    <h3 id={`test-${message.type}`} className="font-medium text-ink">
                      {message.title}
                    </h3>
                    <p className="text-xs text-stone-500">{message.description}</p>
                  </div>
                  <span className="shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-xs text-stone-600 tabular-nums">
                    {message.content.length.toLocaleString('en-US')} chars
                  </span>
                </div>
                <p className="mt-3 flex-1 rounded-lg bg-stone-50 p-2 font-mono text-xs break-words text-stone-700">
                  {message.content ? previewText(message.content, CARD_PREVIEW_LENGTH) : <span className="text-stone-500 italic">(empty)</span>}
                </p>
                <Button
                  size="sm"
                  className="mt-3 self-start"
                  disabled={phone === '' || (runningType !== null && runningType !== message.type)}
                  loading={runningType === message.type}
                  onClick={() => onTest(message.type, message.content)}
                  aria-label={`Test ${message.title.toLowerCase()}`}
                >
                  {runningType !== message.type && <Play aria-hidden="true" className="size-3.5" />}
                  Test
                </Button>
              </Panel>
            ))}
          </div>
        </Tabs.Content>

        <Tabs.Content value="results">
          <TestResults tests={tests.data ?? []} loading={tests.isPending} failed={tests.isError} />
        </Tabs.Content>
      </Tabs.Root>
    </AdminShell>
  );
}

function Indicator({ ok, label }: { ok: boolean; label: string }) {
  const Icon = ok ? CheckCircle2 : XCircle;
  return (
    <span className={cn('inline-flex items-center gap-1 text-xs', ok ? 'text-emerald-700' : 'text-stone-500')}>
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
      <span className="sr-only">{ok ? ': yes' : ': no'}</span>
    </span>
  );
}

function TestResults({ tests, loading, failed }: { tests: SmsTestLog[]; loading?: boolean; failed?: boolean }) {
  if (loading) return <p className="py-8 text-center text-sm text-stone-500">Loading…</p>;
  if (failed) return <InlineError>Failed to load test results</InlineError>;
  if (tests.length === 0) {
    return (
      <Panel>
        <p className="py-6 text-center text-sm text-stone-500">{text.noTestResults}</p>
      </Panel>
    );
  }
  return (
    <ul className="space-y-2" aria-label="Test results">
      {tests.map((test) => {
        const { summary, durationMs, steps } = parseTestResult(test);
        return (
          <li key={test.id} className="rounded-xl border border-stone-200 bg-white p-3 shadow-xs sm:p-4">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="rounded bg-stone-100 px-1.5 py-0.5 text-xs font-medium text-stone-700 uppercase">{test.test_type}</span>
              <span className="font-mono text-sm text-ink">{test.phone_number}</span>
              <span
                className={cn(
                  'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium',
                  test.success ? 'bg-emerald-50 text-emerald-700' : 'bg-red-50 text-red-700',
                )}
              >
                {test.success ? 'Passed' : 'Failed'}
              </span>
              <span className="ml-auto text-xs text-stone-500">{formatDateTime(test.created_at)}</span>
            </div>
            <p className="mt-2 font-mono text-xs break-words text-stone-600">
              {test.message_content ? previewText(test.message_content, RESULT_PREVIEW_LENGTH) : <span className="italic">(empty)</span>}
            </p>
            {summary && (
              <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 border-t border-stone-100 pt-2">
                <span className="inline-flex items-center gap-1 text-xs font-medium text-ink">
                  <Activity aria-hidden="true" className="size-3.5" />
                  {summary.passedSteps}/{summary.totalSteps} steps
                </span>
                <Indicator ok={summary.userFound} label="User Found" />
                <Indicator ok={summary.userVerified} label="Phone Verified" />
                <Indicator ok={summary.hasActiveSubscription} label="Active Sub" />
                <Indicator ok={summary.entryCreated} label="Entry Created" />
                {durationMs !== null && <span className="text-xs text-stone-500 tabular-nums">{formatNumber(durationMs)} ms</span>}
              </div>
            )}
            {steps.length > 0 && (
              <details className="mt-2 text-xs text-stone-600">
                <summary className="cursor-pointer font-medium text-stone-700">Steps</summary>
                <ol className="mt-1 space-y-1">
                  {steps.map((step) => (
                    <li key={step.name} className="flex flex-wrap gap-x-2">
                      <Indicator ok={step.success} label={step.name} />
                      {step.durationMs !== undefined && <span className="text-stone-500 tabular-nums">{step.durationMs} ms</span>}
                      <span className="break-words">{step.message}</span>
                    </li>
                  ))}
                </ol>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}
