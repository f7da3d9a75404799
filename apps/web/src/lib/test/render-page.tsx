import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactElement } from 'react';

/** Renders a page as the console does: a fresh query cache (no retries) and antd's App for its feedback. */
export function renderPage(page: ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>{page}</App>
    </QueryClientProvider>,
  );
}

/** Opens the select that holds the element `testId` and picks the option whose text is `label`. */
export async function chooseOption(testId: string, label: string): Promise<void> {
  const select = screen.getByTestId(testId).closest('.ant-select');
  fireEvent.mouseDown(select?.querySelector('input') ?? (select as Element));
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-item-option')].find(
      (node) => node.textContent === label,
    );
    if (!found) throw new Error(`no option ${label} yet`);
    return found;
  });
  fireEvent.click(option);
}
