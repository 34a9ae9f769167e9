import { API_PATHS } from '@app/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { renderApp } from '../../../test/render';
import { loginAs, makePost, server, url } from '../../../test/server';
import { LEAVE_MESSAGE } from '../hooks/use-unsaved-guard';

describe('Create and edit research', () => {
  it('asks a guest to log in', async () => {
    renderApp('/create-post');
    expect(screen.getByRole('heading', { name: 'New Research' })).toBeInTheDocument();
    expect(screen.getByText('Please log in to write research.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
  });

  it('shows the schema messages and focuses the first invalid field', async () => {
    loginAs([]);
    const { user } = renderApp('/create-post');
    await user.click(await screen.findByRole('button', { name: 'Save draft' }));
    const title = screen.getByRole('textbox', { name: /Title/ });
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Content is required')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
    expect(title).toHaveAccessibleDescription('Title is required');
    await waitFor(() => expect(title).toHaveFocus());
    // An error clears as its field is edited.
    await user.type(title, 'T');
    expect(screen.queryByText('Title is required')).not.toBeInTheDocument();
  });

  it('previews the Markdown, sanitised', async () => {
    loginAs([]);
    const { user } = renderApp('/create-post');
    const content = await screen.findByRole('textbox', { name: /Content \(Markdown\)/ });
    fireEvent.change(content, { target: { value: '# Big\n\n<img src=x onerror="alert(1)">' } });
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(preview.querySelector('h1')).toHaveTextContent('Big');
    // Raw HTML previews as the text the author typed, never as an element with a handler.
    expect(preview.querySelector('img')).toBeNull();
    expect(preview).toHaveTextContent('<img src=x onerror="alert(1)">');
  });

  it('saves a draft with every field and opens the post', async () => {
    loginAs([]);
    const bodies: unknown[] = [];
    server.use(
      http.post(url(API_PATHS.posts), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(makePost({ id: 77, status: 'draft' }), { status: 201 });
      }),
      http.get(url(API_PATHS.post(77)), () => HttpResponse.json(makePost({ id: 77, status: 'draft' }))),
      http.get(url(API_PATHS.postComments(77)), () => HttpResponse.json([])),
    );
    const { user } = renderApp('/create-post');
    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Chip shortage');
    await user.type(screen.getByRole('textbox', { name: 'Summary' }), 'Short');
    await user.type(screen.getByRole('textbox', { name: /Content/ }), 'Body');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Content type' }), 'osint');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Visibility' }), 'members_only');
    await user.type(screen.getByRole('textbox', { name: 'Tags' }), 'chips, supply , chips');
    await user.type(screen.getByRole('textbox', { name: 'Categories' }), 'Asia');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/post/77'));
    expect(bodies).toEqual([
      {
        title: 'Chip shortage',
        summary: 'Short',
        content: 'Body',
        content_type: 'osint',
        visibility: 'members_only',
        status: 'draft',
        tags: ['chips', 'supply'],
        categories: ['Asia'],
      },
    ]);
    expect(sessionStorage.getItem('mf-research:editor:new')).toBeNull();
  });

  it('keeps everything after a failed save, shows why, and restores it after a reload', async () => {
    loginAs([]);
    server.use(
      http.post(url(API_PATHS.posts), () =>
        HttpResponse.json({ error: 'Title is required' }, { status: 400 }),
      ),
    );
    const { user, unmount } = renderApp('/create-post');
    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Keep me');
    await user.type(screen.getByRole('textbox', { name: /Content/ }), 'Precious text');
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    expect(
      await screen.findByText(/Title is required\. Your changes have not been lost\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveValue('Keep me');
    expect(screen.getByRole('textbox', { name: /Content/ })).toHaveValue('Precious text');
    unmount();

    renderApp('/create-post');
    expect(await screen.findByText('Your unsaved changes were restored.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Title/ })).toHaveValue('Keep me');
  });

  it('asks before a link takes the user away from unsaved changes', async () => {
    loginAs([]);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    const { user } = renderApp('/create-post');
    await user.type(await screen.findByRole('textbox', { name: /Title/ }), 'Unsaved');
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(confirm).toHaveBeenCalledWith(LEAVE_MESSAGE);
    expect(screen.getByTestId('location')).toHaveTextContent('/create-post');
    confirm.mockReturnValue(true);
    server.use(
      http.get(url(API_PATHS.myPosts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.posts), () => HttpResponse.json([])),
      http.get(url(API_PATHS.tags), () => HttpResponse.json([])),
      http.get(url(API_PATHS.categories), () => HttpResponse.json([])),
    );
    await user.click(screen.getByRole('link', { name: 'Cancel' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/research-center');
    confirm.mockRestore();
  });

  it('edits an existing post with its values and saves with PUT', async () => {
    loginAs([], { id: 7 });
    const post = makePost({
      id: 5,
      title: 'Old title',
      content: 'Old body',
      status: 'published',
      tags: ['a', 'b'],
      author: { id: 7, name: 'Me' },
    });
    const puts: unknown[] = [];
    server.use(
      http.get(url(API_PATHS.post(5)), () => HttpResponse.json(post)),
      http.put(url(API_PATHS.post(5)), async ({ request }) => {
        puts.push(await request.json());
        return HttpResponse.json({ ...post, title: 'New title' });
      }),
      http.get(url(API_PATHS.postComments(5)), () => HttpResponse.json([])),
    );
    const { user } = renderApp('/post/5/edit');
    const title = await screen.findByRole('textbox', { name: /Title/ });
    expect(title).toHaveValue('Old title');
    expect(screen.getByRole('textbox', { name: 'Tags' })).toHaveValue('a, b');
    await user.clear(title);
    await user.type(title, 'New title');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/post/5'));
    expect(puts[0]).toMatchObject({
      title: 'New title',
      content: 'Old body',
      status: 'published',
      tags: ['a', 'b'],
    });
  });

  it('does not let another member edit', async () => {
    loginAs([], { id: 7 });
    server.use(
      http.get(url(API_PATHS.post(5)), () =>
        HttpResponse.json(makePost({ id: 5, author: { id: 8, name: 'X' } })),
      ),
    );
    renderApp('/post/5/edit');
    expect(await screen.findByText('Only the author can edit this research.')).toBeInTheDocument();
  });
});
