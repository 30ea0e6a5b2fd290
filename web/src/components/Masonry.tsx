//! Masonry columns by viewport width (2/3/4/5/6 at 480/768/1024/1550 px).

import type { ReactNode } from 'react';
import MasonryCss from 'react-masonry-css';
import { MASONRY_COLUMNS } from '@/lib/constants';

export function Masonry({ children }: { children: ReactNode }) {
  return (
    <MasonryCss breakpointCols={MASONRY_COLUMNS} className="masonry" columnClassName="masonry-column">
      {children}
    </MasonryCss>
  );
}
