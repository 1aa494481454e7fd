import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useTabsMore } from '../../ui/named-icons';
import { EventScreen } from './review-kit';
import { ReviewJudgesTab } from './review-judges-tab';
import { ReviewResultsTab } from './review-results-tab';
import { ReviewRunsTab } from './review-runs-tab';
import { ReviewSettingsTab } from './review-settings-tab';
import { ReviewWorksTab } from './review-works-tab';

const TABS = ['works', 'settings', 'judges', 'results', 'runs'] as const;
type Tab = (typeof TABS)[number];

/**
 * The organisers' review management: the works' audit, the review settings, judges with the assignment and each
 * group's progress, the results with the winners' certificates, and the runs of auto-scored tracks. The open tab is
 * kept in the address.
 */
export function ReviewsPage() {
  const { t } = useTranslation('eventReview');
  const { eventId } = useParams();
  const [search, setSearch] = useSearchParams();
  const more = useTabsMore();
  const tab = TABS.find((x) => x === search.get('tab')) ?? 'works';
  return (
    <EventScreen
      eventId={eventId}
      title={t('reviews.title')}
      lead={t('reviews.lead')}
      allowed={(event) => event.viewer.organiser}
      refusal={t('reviews.organisersOnly')}
    >
      {(event) => (
        <Tabs
          activeKey={tab}
          more={more}
          destroyOnHidden
          onChange={(key) => setSearch({ tab: key }, { replace: true })}
          // The runs of auto-scored tracks, when the event has one.
          items={TABS.filter((key) => key !== 'runs' || event.tracks.some((tr) => tr.kind === 'auto')).map(
            (key: Tab) => ({
              key,
              label: t(`reviews.tabs.${key}`),
              children:
                key === 'works' ? (
                  <ReviewWorksTab event={event} />
                ) : key === 'settings' ? (
                  <ReviewSettingsTab event={event} />
                ) : key === 'judges' ? (
                  <ReviewJudgesTab event={event} />
                ) : key === 'results' ? (
                  <ReviewResultsTab event={event} />
                ) : (
                  <ReviewRunsTab event={event} />
                ),
            }),
          )}
        />
      )}
    </EventScreen>
  );
}
