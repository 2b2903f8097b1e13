// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { buildPageMeta, type PageLink } from '../../src/shared/pagination';
import { Pagination } from '../../src/client/ui/pagination';

afterEach(cleanup);

const url = (page: number) => `http://localhost/api/notification?type=all&page=${page}`;

describe('Pagination (spec §9)', () => {
  it('renders nothing when links has 3 entries or fewer', () => {
    const meta = buildPageMeta(1, 15, 10, url); // previous, 1, next
    expect(meta.links).toHaveLength(3);
    const { container } = render(<Pagination meta={meta} onPage={() => {}} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows only previous and next with 4 links, and the page summary', () => {
    const meta = buildPageMeta(1, 15, 20, url); // previous, 1, 2, next
    expect(meta.links).toHaveLength(4);
    const onPage = vi.fn();
    render(<Pagination meta={meta} onPage={onPage} />);
    expect(screen.getByText('Page 1 of 2 (20)')).toBeTruthy();
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Previous', 'Next']);
    // Unusable but still focusable (aria-disabled), and a click on it does nothing.
    expect(buttons[0].getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(buttons[0]);
    expect(onPage).not.toHaveBeenCalled();
    fireEvent.click(buttons[1]);
    expect(onPage).toHaveBeenCalledWith(2);
  });

  it('shows every link with 5 or more and emits the page from the link url', () => {
    const meta = buildPageMeta(2, 10, 45, url); // previous, 1..5, next
    const onPage = vi.fn();
    render(<Pagination meta={meta} onPage={onPage} />);
    expect(screen.getByText('Page 2 of 5 (45)')).toBeTruthy();
    const labels = screen.getAllByRole('button').map((b) => b.textContent);
    expect(labels).toEqual(['Previous', '1', '2', '3', '4', '5', 'Next']);
    expect(screen.getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(screen.getByRole('button', { name: 'Page 4' }));
    expect(onPage).toHaveBeenLastCalledWith(4);
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(onPage).toHaveBeenLastCalledWith(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onPage).toHaveBeenLastCalledWith(3);
  });

  it('reads the page from the url, not from the label', () => {
    const links: PageLink[] = [
      { url: null, label: '&laquo; Previous', active: false },
      { url: '/x?page=1', label: '1', active: true },
      { url: '/x?page=2', label: '2', active: false },
      { url: null, label: '...', active: false },
      { url: '/x?foo=1&page=9', label: 'Last', active: false },
      { url: '/x?page=2', label: 'Next &raquo;', active: false },
    ];
    const onPage = vi.fn();
    render(<Pagination meta={{ links, current_page: 1, last_page: 9, total: 90 }} onPage={onPage} />);
    fireEvent.click(screen.getByRole('button', { name: 'Page Last' }));
    expect(onPage).toHaveBeenCalledWith(9);
    // A gap in the window is a mark, not a button.
    expect(screen.queryByRole('button', { name: 'Page ...' })).toBeNull();
    expect(screen.getByText('…')).toBeTruthy();
  });
});
