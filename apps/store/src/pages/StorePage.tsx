import type { TWebOfferSummary } from '@tourdesk/contracts';
import { useState } from 'react';
import { ErrorPanel, Spinner, useLoad } from '../components/Async';
import { Heading } from '../components/Heading';
import { ClockIcon } from '../components/Icons';
import { useStore } from '../context';
import { formatDuration } from '../lib/dates';
import { formatMoney } from '../lib/money';
import { preloadKey, type OfferList } from '../lib/preload';
import { storeJsonLd } from '../lib/seo';
import { PageHead } from '../components/PageHead';
import { useT } from '../i18n';

/** The store's front page: its name and intro, and its offers as cards. */
export function StorePage() {
  const t = useT();
  const { api, store, link, origin, base } = useStore();
  const [pages, setPages] = useState(1);
  const offers = useLoad<OfferList>(async () => {
    const all: TWebOfferSummary[] = [];
    let total = 1;
    for (let p = 1; p <= pages && p <= total; p += 1) {
      const page = await api.offers(p);
      total = page.total_pages;
      all.push(...page.results);
    }
    return { all, more: pages < total };
  }, [pages], preloadKey.offers(1));
  const list = offers.data?.all ?? [];
  const cover = list.find((o) => o.image_url)?.image_url;

  return (
    <div className="td-page">
      <PageHead
        title={store.name}
        description={store.intro || (list.length ? t('storeDescription', { titles: list.map((o) => o.title).join(', '), org: store.organisation }) : t('storeDescriptionEmpty', { org: store.organisation }))}
        path=""
        image={cover}
        jsonLd={storeJsonLd(store.name, `${origin}${base}`, list)}
      />
      <section className="td-hero">
        <Heading>{store.name}</Heading>
        {store.intro && <p className="td-intro">{store.intro}</p>}
      </section>
      <section aria-labelledby="td-offers-heading">
        <h2 id="td-offers-heading" className="td-sr-only">
          {t('offersHeading')}
        </h2>
        {offers.error && <ErrorPanel error={offers.error} retry={offers.reload} />}
        {offers.loading && !offers.data && <Spinner />}
        {offers.data && offers.data.all.length === 0 && <p className="td-panel">{t('noOffers')}</p>}
        {offers.data && offers.data.all.length > 0 && (
          <ul className="td-cards">
            {offers.data.all.map((o, i) => (
              <li key={o.id} className="td-card">
                <a className="td-card-link" href={link(`offers/${o.id}`)}>
                  <div className="td-card-media">{o.image_url ? <img src={o.image_url} alt="" width={640} height={400} {...(i === 0 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })} /> : <span className="td-card-placeholder" aria-hidden="true" />}</div>
                  <div className="td-card-body">
                    <h3 className="td-card-title">{o.title}</h3>
                    {o.short_description && <p className="td-card-text">{o.short_description}</p>}
                    <p className="td-card-meta">
                      {o.duration_minutes ? (
                        <span>
                          <span className="td-sr-only">{t('duration')}: </span>
                          <ClockIcon /> 
                          {formatDuration(t, o.duration_minutes)}
                        </span>
                      ) : (
                        <span />
                      )}
                      {o.from_price !== null && <span className="td-price">{t('from', { price: formatMoney(o.from_price, o.currency, t.locale) })}</span>}
                    </p>
                  </div>
                </a>
              </li>
            ))}
          </ul>
        )}
        {offers.data?.more && (
          <p className="td-center">
            <button type="button" className="td-btn td-btn--secondary" onClick={() => setPages((n) => n + 1)} disabled={offers.loading}>
              {t('moreOffers')}
            </button>
          </p>
        )}
      </section>
    </div>
  );
}
