#include "profile_prescan.h"

#include "profile_limits.h"

#include <QByteArrayView>
#include <algorithm>
#include <optional>
#include <vector>

namespace gemmscope {

namespace {

// An object or a list the pass is inside.
struct PrescanContainer {
    bool object = false;
    bool expectName = false;   // an object's next string is a member's name
    QByteArrayView name;       // an object's member being read, as written (escapes not undone)
    bool profiles = false;     // the root's "profiles" list
    bool runs = false;         // the root's "runs" list
    bool instructions = false; // an "instructions" list inside one of its entries
    qsizetype values = 0;      // a list's values begun so far
};

// One entry of the "profiles" list: where its bytes are, and its longest "instructions" list.
struct ProfileEntrySpan {
    qsizetype begin = 0, end = 0;
    qsizetype instructions = 0;
};

// A root list whose entries the pass marks: the stack's size while directly inside it, and the
// entry being read.
struct ListEntries {
    qsizetype depth = -1; // -1: not inside the list
    bool inEntry = false;
    qsizetype entryBegin = 0;
    bool at(size_t stackSize) const { return inEntry && qsizetype(stackSize) == depth; }
};

// What the pass found: the entries of "profiles" where it followed the whole file (none where it
// could not, or "profiles" came twice), and the "runs" list (RunListSpans).
struct PrescanFindings {
    std::optional<std::vector<ProfileEntrySpan>> profiles;
    std::optional<RunListSpans> runs;
};

// Deeper than Qt's parser reads (it refuses a document nested past 1,024 levels): handed on as it
// is, for the parser to refuse.
constexpr size_t kMaxPrescanDepth = 2048;

bool endsPrescanToken(char c)
{
    return c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '{' || c == '[' || c == ' ' ||
           c == '\t' || c == '\n' || c == '\r';
}

// The "runs" list as far as the pass read it: what follows its complete entries begins at the
// entry it could not finish, or after the last one.
void stopRuns(std::optional<RunListSpans> &runs, const ListEntries &list)
{
    if (!runs || runs->closed)
        return;
    runs->restBegin =
        list.inEntry ? list.entryBegin : (runs->entries.empty() ? runs->open + 1 : runs->entries.back().end);
}

// The pass over the file, one token at a time: strings, lists and objects, and the scalars between
// them, marking where the entries of "profiles" and "runs" begin and end.
class Prescanner {
public:
    explicit Prescanner(const QByteArray &bytes) : m_data(bytes.constData()), m_size(bytes.size()) {}
    PrescanFindings run();

private:
    // Go on; stop where the pass is (truncated, not JSON, nested too deep); or give up with
    // nothing found ("profiles" or "runs" twice: which one the parser keeps is its business).
    enum class Step { Next, Stop, GiveUp };
    Step readString();
    Step openContainer(char c);
    Step closeContainer(char c);
    void readScalar();
    void valueBegins(qsizetype at);
    void valueEnds(qsizetype at);
    PrescanFindings stopped();

    const char *m_data;
    qsizetype m_size;
    qsizetype m_at = 0;
    std::vector<PrescanContainer> m_stack;
    std::vector<ProfileEntrySpan> m_entries;
    PrescanFindings m_found;
    bool m_profilesSeen = false, m_runsSeen = false;
    ListEntries m_profileList, m_runList;
    ProfileEntrySpan m_entry;
};

PrescanFindings Prescanner::run()
{
    while (m_at < m_size) {
        const char c = m_data[m_at];
        Step step = Step::Next;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':') {
            ++m_at;
        } else if (c == ',') {
            if (!m_stack.empty() && m_stack.back().object)
                m_stack.back().expectName = true;
            ++m_at;
        } else if (c == '"') {
            step = readString();
        } else if (c == '{' || c == '[') {
            step = openContainer(c);
        } else if (c == '}' || c == ']') {
            step = closeContainer(c);
        } else {
            readScalar();
        }
        if (step == Step::Stop)
            return stopped();
        if (step == Step::GiveUp)
            return {};
    }
    if (!m_stack.empty())
        return stopped(); // truncated
    m_found.profiles = std::move(m_entries);
    return m_found;
}

// A string: an object member's name, or a value.
Prescanner::Step Prescanner::readString()
{
    const qsizetype begin = m_at++;
    while (m_at < m_size && m_data[m_at] != '"')
        m_at += m_data[m_at] == '\\' ? 2 : 1;
    if (m_at >= m_size)
        return Step::Stop; // truncated
    ++m_at;
    if (!m_stack.empty() && m_stack.back().object && m_stack.back().expectName) {
        m_stack.back().name = QByteArrayView(m_data + begin + 1, m_at - begin - 2);
        m_stack.back().expectName = false;
    } else {
        valueBegins(begin);
        valueEnds(m_at);
    }
    return Step::Next;
}

// A list or an object begins: the root's "profiles" or "runs", an entry's "instructions", or
// another.
Prescanner::Step Prescanner::openContainer(char c)
{
    valueBegins(m_at);
    PrescanContainer next;
    next.object = c == '{';
    next.expectName = next.object;
    if (!next.object && !m_stack.empty() && m_stack.back().object) {
        const QByteArrayView member = m_stack.back().name;
        next.profiles = m_stack.size() == 1 && member == QByteArrayView("profiles");
        next.runs = m_stack.size() == 1 && member == QByteArrayView("runs");
        next.instructions = m_profileList.inEntry && member == QByteArrayView("instructions");
    }
    if (next.profiles) {
        if (m_profilesSeen)
            return Step::GiveUp;
        m_profilesSeen = true;
        m_profileList.depth = qsizetype(m_stack.size()) + 1;
    }
    if (next.runs) {
        if (m_runsSeen)
            return Step::GiveUp;
        m_runsSeen = true;
        m_found.runs = RunListSpans{m_at, {}, false, 0};
        m_runList.depth = qsizetype(m_stack.size()) + 1;
    }
    if (m_stack.size() >= kMaxPrescanDepth)
        return Step::Stop;
    m_stack.push_back(next);
    ++m_at;
    return Step::Next;
}

Prescanner::Step Prescanner::closeContainer(char c)
{
    if (m_stack.empty() || m_stack.back().object != (c == '}'))
        return Step::Stop; // not JSON
    const PrescanContainer closed = m_stack.back();
    m_stack.pop_back();
    if (closed.profiles) {
        m_profileList.depth = -1;
    } else if (closed.runs) {
        m_runList.depth = -1;
        m_found.runs->closed = true;
        m_found.runs->restBegin =
            m_found.runs->entries.empty() ? m_found.runs->open + 1 : m_found.runs->entries.back().end;
    }
    ++m_at;
    valueEnds(m_at);
    return Step::Next;
}

// A number, true, false or null.
void Prescanner::readScalar()
{
    valueBegins(m_at);
    do
        ++m_at;
    while (m_at < m_size && !endsPrescanToken(m_data[m_at]));
    valueEnds(m_at);
}

// A value begins at `at`: an entry of "profiles" or "runs" where it is one, and an instruction
// counted where it is inside an entry's "instructions".
void Prescanner::valueBegins(qsizetype at)
{
    if (m_stack.empty() || m_stack.back().object)
        return;
    PrescanContainer &list = m_stack.back();
    ++list.values;
    if (list.profiles) {
        m_profileList.inEntry = true;
        m_entry = ProfileEntrySpan{at, at, 0};
    } else if (list.runs) {
        m_runList.inEntry = true;
        m_runList.entryBegin = at;
    } else if (list.instructions) {
        m_entry.instructions = std::max(m_entry.instructions, list.values);
    }
}

// After a value ended at `at`: the end of a list's entry where it was one.
void Prescanner::valueEnds(qsizetype at)
{
    if (m_profileList.at(m_stack.size())) {
        m_entry.end = at;
        m_entries.push_back(m_entry);
        m_profileList.inEntry = false;
    } else if (m_runList.at(m_stack.size())) {
        m_found.runs->entries.push_back({m_runList.entryBegin, at});
        m_runList.inEntry = false;
    }
}

// What the pass found before it stopped: no profiles (it did not follow the whole file), and the
// runs as far as it read them.
PrescanFindings Prescanner::stopped()
{
    stopRuns(m_found.runs, m_runList);
    return m_found;
}

PrescanFindings prescanFile(const QByteArray &bytes)
{
    return Prescanner(bytes).run();
}

// The run list's offsets in the bytes after each profile entry in `replaced` became `null`.
void shiftRunSpans(RunListSpans &runs, const std::vector<ProfileEntrySpan> &replaced)
{
    const auto shifted = [&replaced](qsizetype at) {
        qsizetype shift = 0;
        for (const ProfileEntrySpan &e : replaced)
            if (e.end <= at)
                shift += 4 - (e.end - e.begin);
        return at + shift;
    };
    runs.open = shifted(runs.open);
    runs.restBegin = shifted(runs.restBegin);
    for (RunListSpans::Entry &e : runs.entries)
        e = {shifted(e.begin), shifted(e.end)};
}

} // namespace

ProfilePrescan leaveOutOversizedProfiles(const QByteArray &bytes)
{
    PrescanFindings found = prescanFile(bytes);
    ProfilePrescan out{bytes, {}, std::move(found.runs)};
    if (!found.profiles)
        return out;
    QByteArray kept;
    qsizetype copied = 0;
    std::vector<ProfileEntrySpan> replaced;
    for (size_t index = 0; index < found.profiles->size(); ++index) {
        const ProfileEntrySpan &e = (*found.profiles)[index];
        if (e.instructions <= kMaxProfileInstructions)
            continue;
        out.leftOut.insert(qsizetype(index), tooManyInstructions(e.instructions));
        kept.append(bytes.constData() + copied, e.begin - copied);
        kept.append("null");
        copied = e.end;
        replaced.push_back(e);
    }
    if (out.leftOut.isEmpty())
        return out;
    kept.append(bytes.constData() + copied, bytes.size() - copied);
    out.bytes = kept;
    if (out.runs)
        shiftRunSpans(*out.runs, replaced);
    return out;
}

} // namespace gemmscope
