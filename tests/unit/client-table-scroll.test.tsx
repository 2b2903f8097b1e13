// @vitest-environment jsdom
// A list wider than its card at a laptop's width (1366 px with the sidebar): the table scrolls inside the
// card, never the page, says so at its edges, and a keyboard can scroll it; on a phone its cards keep
// within the screen, however long a value.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DataTable, type TableColumn } from '../../src/client/ui/table';
import { listColumns, stateColumn } from '../../src/client/ui/resources/resource-list';
import { defineResource } from '../../src/shared/resources/define';
import { contract } from '../../src/shared/resources/contract';
import { expense } from '../../src/shared/resources/expense';
import { user } from '../../src/shared/resources/user';
import { ikkPartner } from '../../src/shared/resources/ikk-partner';
import { bgvCheck } from '../../src/shared/resources/bgv-check';
import { resourceDefinitions } from '../../src/shared/resources/registry';
import { z } from 'zod';

interface Person { id: number; name: string; email: string }
const rows: Person[] = [{ id: 1, name: 'Priyanka Venkataraman', email: 'priyanka.venkataraman@northwind-consulting.example' }];
const columns: TableColumn<Person>[] = [
  { key: 'name', header: 'Name', render: (row) => row.name },
  { key: 'email', header: 'Email', render: (row) => row.email },
];

/** jsdom lays nothing out: the scroller's widths are given (1,050 px showing a table of `scrollWidth`). */
function scrollerWidths(scrollWidth: number) {
  const widths = { clientWidth: 1050, scrollWidth };
  for (const [key, value] of Object.entries(widths)) {
    vi.spyOn(HTMLElement.prototype, key as 'clientWidth', 'get').mockImplementation(function (this: HTMLElement) {
      return this.classList.contains('md:overflow-x-auto') ? value : 0;
    });
  }
}

afterEach(() => { cleanup(); vi.restoreAllMocks(); });

describe('a table wider than its card', () => {
  it('can be scrolled from the keyboard: the scroller takes focus and is named for what it holds', () => {
    scrollerWidths(1857);
    render(<DataTable caption="Users" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    const scroller = screen.getByRole('region', { name: 'Users: scroll sideways for more columns' });
    expect(scroller.tabIndex).toBe(0);
    expect(scroller.className).toContain('md:overflow-x-auto');
  });

  it('is a plain table, out of the tab order, when it fits', () => {
    scrollerWidths(1050);
    render(<DataTable caption="Users" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.getByRole('table').parentElement!.hasAttribute('tabindex')).toBe(false);
  });

  it('fades the edge where columns are hidden when no sticky title or actions show it', () => {
    scrollerWidths(1400);
    const { container } = render(<DataTable caption="Users" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    expect(container.querySelector('[data-edge="end"]')).not.toBeNull();
    expect(container.querySelector('[data-edge="start"]')).toBeNull();

    const scroller = screen.getByRole('region');
    act(() => { scroller.scrollLeft = 350; fireEvent.scroll(scroller); });
    expect(container.querySelector('[data-edge="end"]')).toBeNull();
    expect(container.querySelector('[data-edge="start"]')).not.toBeNull();
  });

  it('leaves the edges to the sticky title and actions where the table has them', () => {
    scrollerWidths(1400);
    const withSticky = columns.map((column, index) => ({ ...column, isPrimary: index === 0 }));
    const { container } = render(<DataTable caption="Users" columns={withSticky} rows={rows} rowKey={(row) => row.id}
      actions={() => <button type="button">View</button>} />);
    expect(container.querySelector('[data-edge]')).toBeNull();
    expect(screen.getByRole('button', { name: 'View' }).closest('td')!.className).toContain('before:bg-linear-to-l');
  });
});

describe('a table on a phone', () => {
  it('breaks a long value (an email address) inside its card rather than widen the page', () => {
    render(<DataTable caption="Users" columns={columns} rows={rows} rowKey={(row) => row.id} />);
    expect(screen.getByText(rows[0].email).className).toContain('max-md:wrap-anywhere');
  });

  it('reads a card from the left: its title left-aligned over it, the other cells label / value pairs', () => {
    const withTitle = columns.map((column, index) => ({ ...column, isPrimary: index === 0 }));
    render(<DataTable caption="Users" columns={withTitle} rows={rows} rowKey={(row) => row.id} actions={() => <button type="button">View</button>} />);
    // jsdom applies no stylesheet: the phone layout is read from the cells' classes.
    const title = screen.getByText(rows[0].name).className.split(' ');
    expect(title).toContain('max-md:text-left');
    expect(title).toContain('max-md:block');
    // A right alignment or a spread flex line would push a title (a long one wraps) to the card's right edge.
    expect(title.filter((name) => /^max-md:(text-right|justify-between|flex)$/.test(name))).toEqual([]);
    const value = screen.getByText(rows[0].email);
    expect(value.getAttribute('data-label')).toBe('Email');
    expect(value.className.split(' ')).toEqual(expect.arrayContaining(['max-md:flex', 'max-md:justify-between', 'max-md:text-right']));
  });
});

describe('the columns of a list', () => {
  it('come most useful first: the status is in the first few a laptop shows, not past the row buttons', () => {
    expect(listColumns(user).slice(0, 5)).toEqual(['name', 'email', 'status', 'access_status', 'role_ids']);
    expect(listColumns(expense).slice(0, 3)).toEqual(['description', 'user_id', 'status']);
    expect(listColumns(contract).slice(0, 3)).toEqual(['po_number', 'client_id', 'status']);
    // Every column is still there, once; the export keeps the field order.
    expect([...listColumns(user)].sort()).toEqual([...user.columns].sort());
    expect(user.columns.indexOf('status')).toBeGreaterThan(4);
  });

  it('show every list\'s state among its first three columns, where a laptop sees it beside the row buttons', () => {
    // Field order put the partner's status sixth, after its email, country and account manager: out of sight at 1366 px.
    expect(listColumns(ikkPartner).slice(0, 3)).toEqual(['name', 'contact_name', 'status']);
    expect(ikkPartner.columns.indexOf('status')).toBeGreaterThan(2);
    expect(listColumns(bgvCheck).indexOf('result')).toBe(2);
    const lists = resourceDefinitions.filter((definition) => stateColumn(definition));
    expect(lists.length).toBeGreaterThan(25);
    for (const definition of lists) {
      expect(listColumns(definition).indexOf(stateColumn(definition)!), definition.name).toBeLessThanOrEqual(2);
      expect([...listColumns(definition)].sort(), definition.name).toEqual([...definition.columns].sort());
    }
  });

  it('refuses an order naming something that is not a column', () => {
    expect(() => defineResource({
      name: 'gadget', label: 'Gadget', pluralLabel: 'Gadgets', schema: z.object({ name: z.string() }),
      fields: { name: { label: 'Name', input: 'text', isColumn: true }, note: { label: 'Note', input: 'text' } },
      listOrder: ['note'], titleKey: 'name', search: ['name'], defaultSort: { key: 'name', direction: 'asc' },
      permissions: { view: 'can-view-gadget' }, routes: { index: 'gadget.index' },
    } as Parameters<typeof defineResource>[0])).toThrow('gadget: listOrder names note, which is not a column');
  });
});
