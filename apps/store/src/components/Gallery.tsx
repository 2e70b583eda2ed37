import type { TWebOffer } from '@tourdesk/contracts';
import { useState } from 'react';
import { useT } from '../i18n';

/** The offer's photos: one large, the others as buttons that show them. */
export function Gallery({ images, title }: { images: TWebOffer['images']; title: string }) {
  const t = useT();
  const [index, setIndex] = useState(0);
  if (images.length === 0) return null;
  const current = images[Math.min(index, images.length - 1)]!;
  return (
    <div className="td-gallery">
      <figure className="td-gallery-main">
        <img src={current.url} alt={images.length > 1 ? `${title} – ${t('photo', { n: index + 1, total: images.length })}` : title} width={current.width ?? 1200} height={current.height ?? 800} fetchPriority={index === 0 ? 'high' : undefined} />
      </figure>
      {images.length > 1 && (
        <ul className="td-thumbs">
          {images.map((img, i) => (
            <li key={img.url}>
              <button type="button" className="td-thumb" aria-pressed={i === index} aria-label={t('showPhoto', { n: i + 1 })} onClick={() => setIndex(i)}>
                <img src={img.thumbnail_url ?? img.url} alt="" loading="lazy" width={96} height={64} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
