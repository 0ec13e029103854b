// Decode once: a protocol field name is spelled only in app/protocol (the codec) and in
// the file codecs that store the runner's events (session, bench). This test reads the tree: the
// field names are taken from the codec's own source (app/protocol's events, requests and field
// readers), never from a copy here, and every C++ file under app/, widgets/ and kernels/ outside
// those codecs is searched for one of them used as a JSON key. The protocol's enumerated values
// ("sustained", "clock_drop", "wrong_result", ...) likewise: taken from their one name table
// (app/protocol/values.cpp), and no string literal outside the codecs may spell one.
#include "support/source_scan.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

namespace {

using namespace gemmscope::test;

// The codec and the file codecs: where a field name belongs. Paths relative to the source root;
// one ending in '/' is a folder.
struct Codec {
    const char *path;
    const char *why;
};
const Codec kCodecs[] = {
    {"app/protocol/", "the protocol's one codec"},
    {"app/core/run_record.cpp", "the session file: a run"},
    {"app/core/session_codec.cpp", "the session file"},
    {"app/core/sweep_record.cpp", "the session file: a sweep"},
    {"app/core/profile_record.cpp", "the session file: a profile"},
    {"app/core/profile_limits.cpp", "a profile event's size, checked in its JSON before it is decoded"},
    {"app/core/bench_file.cpp", "the bench file"},
    {"app/core/sweep_summary.cpp", "the bench's sweep file (--sweep --json)"},
    {"app/core/size_sweep_summary.cpp", "the bench's size-sweep file (--size-sweep --json)"},
    {"app/core/sweep_file.cpp", "the bench's sweep files and the Sweep views' exports, read back"},
    {"app/core/results_export.cpp", "the results CSV: its column names (with units) are its format"},
    {"app/core/kernel_buffers.cpp", "the Editor's autosave file, read back by the Editor only"},
    {"app/runner/ceilings.cpp", "the runner's ceilings cache file, read back by the runner only"},
    {"app/runner/nvrtc_compiler.cpp", "the runner's CUBIN cache info file, read back by the runner only"},
};

// A word the protocol uses as a field that is, in this file, something else.
struct NotAField {
    const char *path;
    const char *name;
    const char *why;
};
const NotAField kNotFields[] = {
    {"app/gui/export_actions.cpp", "counters",
     "the Counters workspace's view name (--render-session's file)"},
    {"app/gui/session_render.cpp", "counters", "the same page's name, left out with its reason"},
    {"app/core/sweep_slurm.cpp", "error", "a word looked for in Slurm's own messages (salloc: error: ...)"},
};

// A literal that spells a protocol value but, in this file, means something else.
const NotAField kNotValues[] = {
    {"app/gui/parameter_panel.cpp", "budget", "the Budget field's name for its note, not a stop reason"},
    {"app/bench/bench_table.cpp", "noise", "the table's column title, not a stop reason"},
    // Short words that are also a progress phase or an occupancy limiter, used here for another thing.
    {"app/core/results_model.cpp", "registers", "a column's name in the settings, not a limiter"},
    {"app/core/profile_cost.cpp", "instructions", "a cost term's key, not a progress phase"},
    {"app/core/profile_prescan.cpp", "instructions", "the profile event's field, matched as raw bytes"},
    {"app/core/profile_memory.cpp", "shared", "a memory space's name, not the ceilings phase"},
    {"app/core/stage_kernel_copy.cpp", "tf32", "a precision's name in generated source, not a phase"},
    {"kernels/custom_block.cpp", "shared", "the custom block's keyword, not a phase"},
    {"kernels/custom_block.cpp", "tf32", "the custom block's precision word, not a phase"},
    {"app/bench/bench_options.h", "counters", "the bench's --counters option, not a phase"},
    {"app/bench/runner_session.cpp", "none", "a missing protocol version said in a message"},
    {"app/gui/compile_job.cpp", "compile", "the compile job's id, not a phase"},
    {"app/gui/export_actions.cpp", "counters", "the Counters workspace's view name"},
    {"app/gui/session_render.cpp", "counters", "the same page's name, left out with its reason"},
};

bool isCodec(const QString &path)
{
    for (const Codec &c : kCodecs) {
        const QString codec = QString::fromLatin1(c.path);
        if (codec.endsWith(QLatin1Char('/')) ? path.startsWith(codec) : path == codec)
            return true;
    }
    return false;
}

bool isNotAField(const QString &path, const QString &name)
{
    for (const NotAField &n : kNotFields)
        if (path == QLatin1String(n.path) && name == QLatin1String(n.name))
            return true;
    return false;
}

bool isNotAValue(const QString &path, const QString &name)
{
    for (const NotAField &n : kNotValues)
        if (path == QLatin1String(n.path) && name == QLatin1String(n.name))
            return true;
    return false;
}

// The protocol's enumerated values: every "snake_case" literal of its one name table.
QSet<QString> protocolValueNames()
{
    QSet<QString> names;
    static const QRegularExpression literal(QStringLiteral("\"([a-z][a-z0-9_]*)\""));
    for (const QRegularExpressionMatch &m :
         literal.globalMatch(readSource(QStringLiteral("app/protocol/values.cpp"))))
        names.insert(m.captured(1));
    return names;
}

// Every string literal of `code` that is one snake_case word: "sustained", not "a sentence", nor
// the argument of tr() (words for the user: "timing" said in the status bar is not the phase).
QStringList wordLiteralsIn(const QString &code)
{
    static const QRegularExpression literal(
        QStringLiteral("(?<![\\\\\\w])(?<!\\btr\\()\"([a-z][a-z0-9_]*)\""));
    QStringList words;
    for (const QRegularExpressionMatch &m : literal.globalMatch(code))
        words << m.captured(1);
    return words;
}

// The field names the codec reads and writes: every "snake_case" string literal in its sources.
// (Its other literals are sentences, with spaces and capitals.)
QSet<QString> protocolFieldNames()
{
    QSet<QString> names;
    static const QRegularExpression literal(QStringLiteral("\"([a-z][a-z0-9_]*)\""));
    for (const char *file :
         {"app/protocol/events.cpp", "app/protocol/requests.cpp", "app/protocol/json_fields.cpp"})
        for (const QRegularExpressionMatch &m : literal.globalMatch(readSource(QString::fromLatin1(file))))
            names.insert(m.captured(1));
    return names;
}

// The names `code` uses as JSON keys: the argument of value/contains/insert/remove/take, a
// subscript, or the first of a {key, value} pair (a brace after a name is a constructor call:
// QCommandLineOption stage{"stage", ...} is an option, not a key). Bare or in QStringLiteral,
// QLatin1String and the like.
QStringList keysUsedIn(const QString &code)
{
    static const QString name =
        QStringLiteral("(?:Q\\w*(?:String|Literal)\\w*\\(\\s*)?\"([a-z][a-z0-9_]*)\"\\s*\\)?");
    static const QRegularExpression accessor(
        QStringLiteral("(?:\\.|->)(?:value|contains|insert|remove|take)\\(\\s*") + name);
    static const QRegularExpression subscript(QStringLiteral("\\[\\s*") + name + QStringLiteral("\\s*\\]"));
    static const QRegularExpression pair(QStringLiteral("(?<![\\w>])\\{\\s*") + name +
                                         QStringLiteral("\\s*,"));
    QStringList keys;
    for (const QRegularExpression *re : {&accessor, &subscript, &pair})
        for (const QRegularExpressionMatch &m : re->globalMatch(code))
            keys << m.captured(1);
    return keys;
}

// A size's text that is not squareOrFullSizeText's: its own definition, or a text a field parses
// or a key that is never shown.
struct SizeFormat {
    const char *path;
    const char *literal;
    const char *why;
};
const SizeFormat kSizeFormats[] = {
    {"app/core/run_record.cpp", "%1x%2x%3", "squareOrFullSizeText itself"},
    {"app/core/size_sweep_summary.cpp", "%1x%2x%3", "a hash key (sizeKey), never shown"},
    {"kernels/tools/model_report_main.cpp",
     "gemmscope-model: the size must look like 1536x1536x1536, not \\\"%s\\\"\\n",
     "a command line's input format"},
};

bool isSizeFormat(const QString &path, const QString &literal)
{
    for (const SizeFormat &f : kSizeFormats)
        if (path == QLatin1String(f.path) && literal == QString::fromUtf8(f.literal))
            return true;
    return false;
}

// What a string literal the user reads spells another way than the window's one spelling: cuBLAS
// as "cuBLAS" (the baselines "cuBLAS FP32" and "cuBLAS TF32", never "cuBLAS SGEMM"), a problem size
// as squareOrFullSizeText writes it ("4096³", "8192x4096x6144"), never "%1 x %2 x %3",
// "4096 x 4096 x 4096" or "M=N=K=4096". Empty when it spells them so. A literal without a space
// ("cublas_fp32", "pct_of_cublas_fp32") is a key or a file's column name, not a word.
QString misspellingIn(const QString &literal)
{
    static const QRegularExpression cublas(QStringLiteral("cublas"),
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression placeholders(
        QStringLiteral("%\\d+\\s*[x×]\\s*%\\d+\\s*[x×]\\s*%\\d+|M\\s*=\\s*N\\s*=\\s*K\\s*=\\s*\\d"));
    static const QRegularExpression numbers(
        QStringLiteral("\\b(\\d{2,})(\\s*[x×]\\s*)(\\d{2,})\\s*[x×]\\s*(\\d{2,})\\b"));
    if (literal.contains(QLatin1Char(' ')))
        for (const QRegularExpressionMatch &m : cublas.globalMatch(literal))
            if (m.captured() != QLatin1String("cuBLAS") ||
                literal.mid(m.capturedEnd()).startsWith(QLatin1String(" SGEMM")))
                return QStringLiteral("cuBLAS as \"%1\"").arg(literal.mid(m.capturedStart(), 12));
    // A key joins a size with other fields ("stage|4096x4096x4096", "label@4096x4096x4096").
    if (literal.contains(QLatin1Char('|')) || literal.contains(QLatin1Char('@')))
        return {};
    if (const QRegularExpressionMatch m = placeholders.match(literal); m.hasMatch())
        return QStringLiteral("a size as \"%1\"").arg(m.captured());
    // Written out, as the helper writes it: "8192x4096x6144", and a square one "4096³".
    if (const QRegularExpressionMatch m = numbers.match(literal);
        m.hasMatch() && (m.captured(2) != QLatin1String("x") ||
                         (m.captured(1) == m.captured(3) && m.captured(3) == m.captured(4))))
        return QStringLiteral("a size as \"%1\"").arg(m.captured());
    return {};
}

// How a string literal the user reads names a preset another way than the window's one way (its
// code and Stage name, app/core/stage_names.h): by its catalog key ("worklog-8", "fp32-tuned"), or as
// a "Step 8" of its own. Empty when it does not. A literal without a space is a key, not a sentence.
// A literal that names a preset by its key because a key is what it asks for (a command line's).
const SizeFormat kPresetKeyInputs[] = {
    {"app/gui/main.cpp", "Start with this preset configured (tf32-wgmma-tma).", "--preset takes a key"},
};

bool isPresetKeyInput(const QString &path, const QString &literal)
{
    for (const SizeFormat &f : kPresetKeyInputs)
        if (path == QLatin1String(f.path) && literal == QString::fromUtf8(f.literal))
            return true;
    return false;
}

QString presetMisnamingIn(const QString &literal)
{
    static const QRegularExpression key(
        QStringLiteral("\\b(?:worklog-\\d\\w*|guide-32[\\w-]*|fp32-[a-z]+|tf32-[a-z][\\w-]*)"));
    static const QRegularExpression step(QStringLiteral("(?:^|[(\"])Step \\d"));
    if (!literal.contains(QLatin1Char(' ')))
        return {};
    if (const QRegularExpressionMatch m = key.match(literal); m.hasMatch())
        return QStringLiteral("the preset key \"%1\"").arg(m.captured());
    if (const QRegularExpressionMatch m = step.match(literal); m.hasMatch())
        return QStringLiteral("a preset as \"%1\"").arg(literal.left(12));
    return {};
}

} // namespace

class TstFieldSpelling : public QObject {
    Q_OBJECT

private slots:
    void theCodecDefinesTheNames()
    {
        const QSet<QString> names = protocolFieldNames();
        // Read from the codec, not listed here: a few it must have found, or nothing is checked.
        QVERIFY2(names.size() > 50, qPrintable(QStringLiteral("only %1 names read from app/protocol in %2")
                                                   .arg(names.size())
                                                   .arg(sourceRoot())));
        for (const char *sample : {"median_ms", "dram_intensity", "tf32_tflops", "event"})
            QVERIFY2(names.contains(QLatin1String(sample)), sample);
    }

    void findsKeyUses_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("keys");
        QTest::newRow("value") << QString(
                                      "r.raw.value(\"timing\").toObject().value(QStringLiteral(\"warmup\"))")
                               << QStringList{"timing", "warmup"};
        QTest::newRow("through a pointer")
            << QString("event->value(QStringLiteral(\"protocol\"))") << QStringList{"protocol"};
        QTest::newRow("subscript") << QString("o[\"median_ms\"] = run.medianMs;") << QStringList{"median_ms"};
        QTest::newRow("pair") << QString("QJsonObject{{QStringLiteral(\"rel_error\"), e}, {\"nan\", n}}")
                              << QStringList{"rel_error", "nan"};
        QTest::newRow("an option") << QString(
                                          "QCommandLineOption stage{QStringLiteral(\"stage\"), tr(\"..\")};")
                                   << QStringList{};
        QTest::newRow("a comparison")
            << QString("if (limiter == QLatin1String(\"registers\"))") << QStringList{};
        QTest::newRow("a comment") << withoutComment("f(x); // o.value(\"median_ms\")") << QStringList{};
        QTest::newRow("a string") << withoutComment("o.value(\"http://x\"); o.value(\"median_ms\")")
                                  << QStringList{"median_ms"};
    }

    void theValueTableDefinesTheValues()
    {
        const QSet<QString> values = protocolValueNames();
        QVERIFY2(values.size() > 20, qPrintable(QStringLiteral("only %1 values read").arg(values.size())));
        for (const char *sample : {"sustained", "clock_drop", "power_cap", "scalar_shared", "wrong_result",
                                   "load_warmup", "shared_memory"})
            QVERIFY2(values.contains(QLatin1String(sample)), sample);
    }

    void findsValueLiterals_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("a comparison")
            << QString("if (r == QStringLiteral(\"sustained\"))") << QStringList{"sustained"};
        QTest::newRow("bare") << QString("const char *s = \"clock_drop\";") << QStringList{"clock_drop"};
        QTest::newRow("a sentence") << QString("tr(\"The burst ended.\")") << QStringList{};
        QTest::newRow("translated") << QString("return tr(\"timing\");") << QStringList{};
        QTest::newRow("not tr") << QString("attr(\"timing\")") << QStringList{"timing"};
        QTest::newRow("quoted in a sentence")
            << QString("QStringLiteral(\"Field \\\"regime\\\" must be set.\")") << QStringList{};
        QTest::newRow("a comment") << withoutComment("f(); // \"thermal\"") << QStringList{};
    }

    void findsValueLiterals()
    {
        QFETCH(QString, code);
        QFETCH(QStringList, words);
        QCOMPARE(wordLiteralsIn(code), words);
    }

    void findsKeyUses()
    {
        QFETCH(QString, code);
        QFETCH(QStringList, keys);
        QCOMPARE(keysUsedIn(code), keys);
    }

    void noFieldNameOutsideTheCodecs()
    {
        const QSet<QString> names = protocolFieldNames();
        const QSet<QString> values = protocolValueNames();
        const QDir root(sourceRoot());
        QStringList found;
        int files = 0;
        for (const char *folder : {"app", "widgets", "kernels"}) {
            QDirIterator it(root.filePath(QString::fromLatin1(folder)),
                            {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = root.relativeFilePath(it.next());
                if (isCodec(path))
                    continue;
                ++files;
                const QStringList lines = readSource(path).split(QLatin1Char('\n'));
                for (qsizetype i = 0; i < lines.size(); ++i) {
                    const QString code = withoutComment(lines[i]);
                    for (const QString &key : keysUsedIn(code))
                        if (names.contains(key) && !isNotAField(path, key))
                            found << QStringLiteral("%1:%2 spells the protocol field \"%3\"")
                                         .arg(path)
                                         .arg(i + 1)
                                         .arg(key);
                    for (const QString &word : wordLiteralsIn(code))
                        if (values.contains(word) && !isNotAValue(path, word))
                            found << QStringLiteral("%1:%2 spells the protocol value \"%3\"")
                                         .arg(path)
                                         .arg(i + 1)
                                         .arg(word);
                }
            }
        }
        QVERIFY2(
            files > 100,
            qPrintable(QStringLiteral("only %1 source files found under %2").arg(files).arg(root.path())));
        QVERIFY2(
            found.isEmpty(),
            qPrintable(QStringLiteral("Decode and encode these through app/protocol's codec and its value "
                                      "names (or a session or bench file codec) instead:\n") +
                       found.join(QLatin1Char('\n'))));
    }

    // The checker itself: what it flags and what it lets be.
    void findsMisspellings_data()
    {
        QTest::addColumn<QString>("literal");
        QTest::addColumn<bool>("misspelt");
        QTest::newRow("cuBLAS") << QStringLiteral("% of cuBLAS FP32 on the same GPU") << false;
        QTest::newRow("key") << QStringLiteral("cublas_fp32") << false;
        QTest::newRow("csv column") << QStringLiteral("pct_of_cublas_fp32") << false;
        QTest::newRow("lower") << QStringLiteral("slower than cublas here") << true;
        QTest::newRow("upper") << QStringLiteral("CUBLAS SGEMM") << true;
        QTest::newRow("sgemm") << QStringLiteral("cuBLAS SGEMM (FP32)") << true;
        QTest::newRow("helper's") << QStringLiteral("Profile of %1 at %2 on %3") << false;
        QTest::newRow("spaced") << QStringLiteral("set to %1 x %2 x %3, the size") << true;
        QTest::newRow("unspaced") << QStringLiteral("at %2x%3x%4 on %5") << true;
        QTest::newRow("numbers") << QStringLiteral("NVIDIA H200, 4096 x 4096 x 4096") << true;
        QTest::newRow("square") << QStringLiteral("at 4096x4096x4096") << true;
        QTest::newRow("written out") << QStringLiteral("Worklog 8192x4096x6144") << false;
        QTest::newRow("equal") << QStringLiteral("M=N=K=4096") << true;
        QTest::newRow("dimensions") << QStringLiteral("problem size M = N = K (log 2)") << false;
        QTest::newRow("a key") << QStringLiteral("%1|%2x%3x%4") << false;
        QTest::newRow("a tile") << QStringLiteral("132 SMs x 128 x 2 x 1.98 GHz") << false;
    }
    void findsMisspellings()
    {
        QFETCH(QString, literal);
        QFETCH(bool, misspelt);
        QCOMPARE(!misspellingIn(literal).isEmpty(), misspelt);
    }

    void findsPresetMisnamings_data()
    {
        QTest::addColumn<QString>("literal");
        QTest::addColumn<bool>("misnamed");
        QTest::newRow("code") << QStringLiteral("%1 — %2 at %3") << false;
        QTest::newRow("key in a sentence") << QStringLiteral("no successful worklog-0 run at %1") << true;
        QTest::newRow("tuned key") << QStringLiteral("compared with fp32-tuned here") << true;
        QTest::newRow("a key alone") << QStringLiteral("worklog-3") << false;
        QTest::newRow("step title") << QStringLiteral("Step 8: __restrict__ + #pragma unroll") << true;
        QTest::newRow("worklog's step") << QStringLiteral("the worklog's step 3") << false;
        QTest::newRow("a row") << QStringLiteral("stage (worklog step)") << false;
    }
    void findsPresetMisnamings()
    {
        QFETCH(QString, literal);
        QFETCH(bool, misnamed);
        QCOMPARE(!presetMisnamingIn(literal).isEmpty(), misnamed);
    }

    // One name a preset in every string the window shows (issue 38): its code and Stage name,
    // never its catalog key nor a "Step 8" title, which read as three kernels. The catalog's own
    // titles (kernels/) are the files' and the bench's words, not the window's.
    void oneNameAPreset()
    {
        QStringList found;
        const int files =
            forEachLiteral({QStringLiteral("app/gui"), QStringLiteral("app/core"), QStringLiteral("widgets")},
                           [&](const QString &path, int line, const QString &literal) {
                               if (const QString what = presetMisnamingIn(literal);
                                   !what.isEmpty() && !isPresetKeyInput(path, literal))
                                   found << QStringLiteral("%1:%2 names %3").arg(path).arg(line).arg(what);
                           });
        QVERIFY2(files > 100, qPrintable(QStringLiteral("only %1 source files found").arg(files)));
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("Name presets through app/core/stage_names.h "
                                                            "(presetTitle, shortPresetLabel):\n") +
                                             found.join(QLatin1Char('\n'))));
    }

    // One spelling of cuBLAS and of a problem size in every string the window, its tooltips and
    // its exports' headers are made of: "cuBLAS", "cublas" and "CUBLAS SGEMM" in one window, or
    // "4096³" beside "4096 x 4096 x 4096" and "4096x4096x4096", read as different things.
    void oneSpellingOfCublasAndOfASize()
    {
        QStringList found;
        const int files =
            forEachLiteral({QStringLiteral("app/gui"), QStringLiteral("app/core"), QStringLiteral("widgets"),
                            QStringLiteral("kernels")},
                           [&](const QString &path, int line, const QString &literal) {
                               if (const QString what = misspellingIn(literal);
                                   !what.isEmpty() && !isSizeFormat(path, literal))
                                   found << QStringLiteral("%1:%2 spells %3").arg(path).arg(line).arg(what);
                           });
        QVERIFY2(files > 100, qPrintable(QStringLiteral("only %1 source files found").arg(files)));
        QVERIFY2(found.isEmpty(),
                 qPrintable(QStringLiteral("Write \"cuBLAS\" (\"cuBLAS FP32\", \"cuBLAS TF32\") and sizes "
                                           "through squareOrFullSizeText (app/core/run_record.h):\n") +
                            found.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TstFieldSpelling)
#include "tst_field_spelling.moc"
