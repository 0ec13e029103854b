// The one source of each kind of test's precompiled-header executable
// (cmake/precompiled_headers.cmake): the header is built for it, and the tests of its kind reuse it.
int main()
{
    return 0;
}
