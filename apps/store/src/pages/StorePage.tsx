import type { TWebOfferSummary } from '@tourdesk/contracts';
import { useState } from 'preact/hooks';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Heading } from '../components/Heading';
import { ClockIcon } from '../components/Icons';
import { useStore } from '../context';
import { formatDuration } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { t } from '../texts';

/** The store's front page: its name and intro, and its offers as cards. */
export function StorePage() {
  const { api, store, link } = useStore();
  const [pages, setPages] = useState(1);
  const offers = useLoad(async () => {
    const all: TWebOfferSummary[] = [];
    let total = 1;
    for (let p = 1; p <= pages && p <= total; p += 1) {
      const page = await api.offers(p);
      total = page.total_pages;
      all.push(...page.results);
    }
    return { all, more: pages < total };
  }, [pages]);

  return (
    <div class="td-page">
      <section class="td-hero">
        <Heading title={store.name}>{store.name}</Heading>
        {store.intro && <p class="td-intro">{store.intro}</p>}
      </section>
      <section aria-labelledby="td-offers-heading">
        <h2 id="td-offers-heading" class="td-sr-only">
          {t.offersHeading}
        </h2>
        {offers.error && <ErrorPanel error={offers.error} retry={offers.reload} />}
        {offers.loading && !offers.data && <Spinner />}
        {offers.data && offers.data.all.length === 0 && <p class="td-panel">{t.noOffers}</p>}
        {offers.data && offers.data.all.length > 0 && (
          <ul class="td-cards">
            {offers.data.all.map((o) => (
              <li key={o.id} class="td-card">
                <a class="td-card-link" href={link(`offers/${o.id}`)}>
                  <div class="td-card-media">{o.image_url ? <img src={o.image_url} alt="" loading="lazy" width={640} height={400} /> : <span class="td-card-placeholder" aria-hidden="true" />}</div>
                  <div class="td-card-body">
                    <h3 class="td-card-title">{o.title}</h3>
                    {o.short_description && <p class="td-card-text">{o.short_description}</p>}
                    <p class="td-card-meta">
                      {o.duration_minutes ? (
                        <span>
                          <span class="td-sr-only">{t.duration}: </span>
                          <ClockIcon /> 
                          {formatDuration(o.duration_minutes)}
                        </span>
                      ) : (
                        <span />
                      )}
                      {o.from_price !== null && <span class="td-price">{t.from(formatMoney(o.from_price, o.currency))}</span>}
                    </p>
                  </div>
                </a>
              </li>
            ))}
          </ul>
        )}
        {offers.data?.more && (
          <p class="td-center">
            <button type="button" class="td-btn td-btn--secondary" onClick={() => setPages((n) => n + 1)} disabled={offers.loading}>
              {t.moreOffers}
            </button>
          </p>
        )}
      </section>
    </div>
  );
}
