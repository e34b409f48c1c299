import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ChatFiltersDialog, DEFAULT_SETTINGS } from './chat-filters-dialog';

afterEach(cleanup);

describe('chat filters dialog', () => {
  it('shows capitalised orientation labels and keeps sending the stored values', () => {
    const onChange = jest.fn();
    render(<ChatFiltersDialog open settings={DEFAULT_SETTINGS} onChange={onChange} onClose={() => undefined} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Sexual Orientation' }));
    const list = within(screen.getByRole('listbox'));
    expect(list.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Any orientation',
      'Straight',
      'Gay',
      'Lesbian',
      'Bisexual',
      'Pansexual',
      'Asexual',
      'Queer',
    ]);
    fireEvent.click(list.getByRole('option', { name: 'Straight' }));
    expect(onChange).toHaveBeenCalledWith({ ...DEFAULT_SETTINGS, orientation: 'straight' });
  });
});
