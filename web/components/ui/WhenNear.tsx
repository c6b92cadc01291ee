import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Renders its children once the place they would take comes within `ahead` of the viewport
 * (a CSS margin, "100%" = one screen further down), and nothing before: a lazy section far down
 * a page then costs its code only to those who scroll to it, not every first load. Without
 * IntersectionObserver (old browsers, jsdom) the children render at once. Until then it shows
 * `placeholder` (a heading and a loading status, say), so the page's outline is there before the
 * section's code is.
 */
export function WhenNear({
  children,
  ahead = "100%",
  placeholder = null,
}: {
  children: ReactNode;
  ahead?: string;
  placeholder?: ReactNode;
}) {
  const marker = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = marker.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: `0px 0px ${ahead} 0px` },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ahead]);
  return near ? (
    children
  ) : (
    <div ref={marker} data-when-near="">
      {placeholder}
    </div>
  );
}
