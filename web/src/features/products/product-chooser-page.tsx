import { ApiOutlined, BankOutlined, DisconnectOutlined, ReadOutlined } from '@ant-design/icons';
import { Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { saveProductChoice } from '../../app/session';
import { SignInRequired } from '../../app/sign-in-required';
import { Button } from '../../ui/button';
import { LinkButton } from '../../ui/link-button';
import { StatusCard } from '../../ui/status-card';
import type { ProductId } from './product-access';
import { useProducts, type ChooserProduct } from './use-products';
import './products.css';

const ICONS: Record<ProductId, ReactNode> = {
  pjedu: <ReadOutlined />,
  admin: <BankOutlined />,
  open: <ApiOutlined />,
};

/**
 * `/pjedu/products`: the products the user may use, one card each; the choice is remembered, so the next sign-in
 * goes straight there (product-access.ts `signInLanding`).
 */
export function ProductChooserPage() {
  const { t } = useTranslation();
  return (
    <SignInRequired title={t('productChooser', { ns: 'screens' })}>
      <ProductChooser />
    </SignInRequired>
  );
}

function ProductChooser() {
  const { t } = useTranslation();
  const { usable, products, isError, retrying, retry } = useProducts();
  const title = t('productChooser', { ns: 'screens' });

  if (!products && isError) {
    return (
      <div className="page">
        <StatusCard
          icon={<DisconnectOutlined />}
          title={title}
          lead={t('products.loadFailed')}
          action={
            <Button kind="primary" size="large" loading={retrying} onClick={retry}>
              {t('products.retry')}
            </Button>
          }
        />
      </div>
    );
  }
  return (
    <div className="page product-chooser">
      <h1 id="product-chooser-title">{title}</h1>
      <p className="product-chooser__lead">{t('products.lead')}</p>
      <ul className="product-chooser__list" aria-labelledby="product-chooser-title" aria-busy={!products}>
        {products
          ? products.map((product) => (
              <li key={product.id}>
                <ProductCard product={product} />
              </li>
            ))
          : // As many cards as will arrive, so nothing moves when the names do.
            usable.map(({ id }) => (
              <li key={id} className="product-card">
                <Skeleton active avatar paragraph={{ rows: 2 }} />
              </li>
            ))}
      </ul>
    </div>
  );
}

function ProductCard({ product }: { product: ChooserProduct }) {
  const { t } = useTranslation();
  const titleId = `product-${product.id}`;
  return (
    <section className="product-card" aria-labelledby={titleId}>
      <span className="product-card__icon" aria-hidden="true">
        {ICONS[product.id]}
      </span>
      <h2 id={titleId} className="product-card__name">
        {product.name}
      </h2>
      <p className="product-card__description">{product.description}</p>
      <LinkButton kind="primary" size="large" block to={product.landing} onClick={() => saveProductChoice(product.id)}>
        {t('products.open', { name: product.name })}
      </LinkButton>
    </section>
  );
}
