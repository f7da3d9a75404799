import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { createElement, type ReactNode } from 'react';

function render(node: AbstractNode, key?: number): ReactNode {
  return createElement(node.tag, { key, ...node.attrs }, node.children?.map(render));
}

/**
 * An icon of the console's icon set (the SVGs behind antd's icons) without antd's icon runtime: the same
 * glyphs on the pages shown before the console loads. Decorative: what it means is said in text beside it.
 */
export function Icon({
  icon,
  spin = false,
  className,
}: {
  icon: IconDefinition;
  spin?: boolean;
  className?: string;
}) {
  const svg = typeof icon.icon === 'function' ? icon.icon('currentColor', '#e6f4ff') : icon.icon;
  const classes = ['uiot-icon', spin ? 'uiot-icon--spin' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <span className={classes} aria-hidden="true">
      {createElement(
        'svg',
        { ...svg.attrs, width: '1em', height: '1em', fill: 'currentColor', 'data-icon': icon.name },
        svg.children?.map(render),
      )}
    </span>
  );
}
