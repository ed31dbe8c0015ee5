/** The page's elements, found by id, and click handlers that call the service. */
export const byId = <T extends HTMLElement = HTMLElement>(id: string): T | null =>
  document.getElementById(id) as T | null;

/** Click handlers that call the service: their errors are handled inside them. */
export const onClick = (element: HTMLElement, handler: () => Promise<void>) =>
  element.addEventListener('click', () => void handler());
