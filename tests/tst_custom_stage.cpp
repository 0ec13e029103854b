// A user's kernel as a stage made of data: a sound parameter block gives the StageInfo, geometry
// and violations it declares; every malformed block, and every source the include check refuses,
// gives its sentence at its line; hostile sizes stay one sentence; the registry makes custom keys
// known to the catalog from any thread.
#include "custom_stage.h"
#include "kernel_sources.h"

#include <QtTest>

#include <atomic>
#include <thread>

using namespace gemmscope;

namespace {

// Lines 1..12; the block's lines are numbered in the comments.
const char *kSound = "// my kernel\n"                               // 1
                     "/* gemmscope:kernel\n"                        // 2
                     "name      user::tiles\n"                      // 3
                     "title     Tiles\n"                            // 4
                     "precision tf32\n"                             // 5
                     "param BM  16..256 step 16 default 64\n"       // 6
                     "param TM  {8, 4} default 8\n"                 // 7
                     "require   BM / TM >= 8\n"                     // 8
                     "block     BM / TM, 4\n"                       // 9
                     "grid      ceil_div(N, 64), ceil_div(M, BM)\n" // 10
                     "shared    4 * BM * 8\n"                       // 11
                     "*/\n"                                         // 12
                     "template <int BM, int TM> __global__ void tiles();\n";

CustomStageParse parsed(const std::string &text, const std::string &file = "tiles.cuh")
{
    return parseCustomStage({text, file, {}});
}

QString sentences(const std::vector<SourceProblem> &problems)
{
    return QString::fromStdString(describeSourceProblems("k.cuh", problems));
}

// A block around the given lines: line 2 opens it, `lines` start at line 3.
std::string block(const std::string &lines)
{
    return "#include \"common.cuh\"\n/* gemmscope:kernel\n" + lines + "*/\n";
}

const std::string kLaunch = "name k::k\nblock 32\ngrid 1\n"; // three lines

QString blankKernelPath()
{
    return QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/kernels/blank_kernel.cuh");
}

} // namespace

class TestCustomStage : public QObject {
    Q_OBJECT

private slots:
    void soundBlockGivesItsStage()
    {
        const CustomStageParse p = parsed(kSound, "dir/tiles.cuh");
        QVERIFY2(p.stage, qPrintable(sentences(p.problems)));
        const StageInfo &s = *p.stage;
        QCOMPARE(s.key, customStageKey(kSound));
        QVERIFY(isCustomStageKey(s.key));
        QCOMPARE(s.id.key(), std::string_view(s.key));
        QVERIFY(s.isCustom);
        QCOMPARE(s.sourceText, std::string(kSound));
        QCOMPARE(s.sourceFile, std::string("tiles.cuh")); // a program name, never a path
        QCOMPARE(s.kernelName, std::string("user::tiles"));
        QCOMPARE(s.title, std::string("Tiles"));
        QVERIFY(s.precision == Precision::Tf32);
        QCOMPARE(s.params.size(), std::size_t(2));
        QCOMPARE(s.params[0].name, std::string("BM"));
        QCOMPARE(s.params[0].min, 16);
        QCOMPARE(s.params[0].max, 256);
        QCOMPARE(s.params[0].step, 16);
        QCOMPARE(s.params[0].defaultValue, 64);
        QCOMPARE(s.params[1].choices, (std::vector<int>{4, 8}));
        QCOMPARE(s.params[1].defaultValue, 8);

        const ParamValues params{{"BM", 128}, {"TM", 8}};
        const LaunchGeometry g = s.model.launch(params, ProblemSize{1000, 130, 7});
        QCOMPARE(g.blockX, 16);
        QCOMPARE(g.blockY, 4);
        QCOMPARE(g.gridX, 3LL);
        QCOMPARE(g.gridY, 8LL);
        QCOMPARE(s.model.staticSmem(params), 4 * 128 * 8);
        QVERIFY(!s.model.dynamicSmem || s.model.dynamicSmem(params) == 0);
    }

    // Registered, the catalog's own functions answer for the key as for a built-in stage.
    void catalogKnowsTheRegisteredStage()
    {
        const CustomStageParse p = registerCustomKernel({kSound, "tiles.cuh", "coalesced"});
        QVERIFY(p.stage);
        const StageId id(p.stage->key);
        QVERIFY(findStage(p.stage->key) != nullptr);
        QCOMPARE(stageInfo(id).derivedFrom, std::string("coalesced"));
        QCOMPARE(kernelNameExpression(id, {{"BM", 96}, {"TM", 4}}), std::string("user::tiles<96, 4>"));
        QCOMPARE(defaultParams(id), (ParamValues{{"BM", 64}, {"TM", 8}}));
        const ProblemSize size{256, 256, 256};
        QVERIFY(violations(id, {{"BM", 64}, {"TM", 8}}, size).empty());
        const LaunchGeometry g = launchGeometry(id, {{"BM", 64}, {"TM", 8}}, size);
        QCOMPARE(g.blockX * g.blockY, 32);
        QCOMPARE(g.staticSmemBytes, 2048);

        // BM = 48 and TM = 8: the requirement fails, with its text, its line and the values.
        const std::vector<std::string> v = violations(id, {{"BM", 48}, {"TM", 8}}, size);
        QCOMPARE(v.size(), std::size_t(1));
        QCOMPARE(v[0],
                 std::string("The requirement \"BM / TM >= 8\" (line 8) does not hold for BM=48 TM=8."));
        // Ranges and choices come from the block, checked by the catalog as for every stage.
        QCOMPARE(violations(id, {{"BM", 40}, {"TM", 8}}, size),
                 std::vector<std::string>{"BM (40) must be 16 plus a multiple of 16."});
        QVERIFY(!violations(id, {{"BM", 64}, {"TM", 5}}, size).empty());
        QCOMPARE(launchGeometry(id, {{"BM", 40}, {"TM", 8}}, size).gridX, 0LL);
        // stages() stays the built-in ladder.
        for (const StageInfo &s : stages())
            QVERIFY(!s.isCustom);
    }

    // An expression that cannot be computed for some values is a violation sentence, not UB.
    void evaluationErrorsAreViolations()
    {
        const std::string text = block("name k::k\nparam BM 1..128 default 64\nrequire K % (BM - 64) == 0\n"
                                       "block 1024 / (BM - 32)\ngrid ceil_div(N, 1), 70000\nshared 4 * BM\n");
        const CustomStageParse p = registerCustomKernel({text, "k.cuh", {}});
        QVERIFY2(p.stage, qPrintable(sentences(p.problems)));
        const StageId id(p.stage->key);
        const std::vector<std::string> v = violations(id, {{"BM", 64}}, {64, 64, 64});
        QCOMPARE(v.size(), std::size_t(2));
        QCOMPARE(v[0],
                 std::string("The requirement \"K % (BM - 64) == 0\" (line 5) cannot be checked for BM=64 "
                             "K=64: a modulo by zero in \"K % (BM - 64)\"."));
        QCOMPARE(v[1], std::string("The grid y size \"70000\" (line 7) is 70000 for any values; it must be "
                                   "between 1 and 65535."));
        const std::vector<std::string> w = violations(id, {{"BM", 32}}, {64, 64, 64});
        QVERIFY(std::any_of(w.begin(), w.end(), [](const std::string &s) {
            return s.find("The block x size \"1024 / (BM - 32)\" (line 6) cannot be computed for BM=32: a "
                          "division by zero") == 0;
        }));
        QCOMPARE(launchGeometry(id, {{"BM", 32}}, {64, 64, 64}).gridX, 0LL);
    }

    void malformedBlocks_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("sentence");
        const auto add = [](const char *row, const std::string &text, int line, const char *sentence) {
            QTest::newRow(row) << QString::fromStdString(text) << line << QString(sentence);
        };
        add("no block", "__global__ void k() {}\n", 0, "The kernel has no parameter block");
        add("unclosed block", "/* gemmscope:kernel\nname k::k\n", 1, "has no closing */");
        add("two blocks", block(kLaunch) + "/* gemmscope:kernel\n*/\n", 7, "A second parameter block");
        add("unknown keyword", block(kLaunch + "threads 32\n"), 6, "The block has no keyword \"threads\"");
        add("missing name", block("block 32\ngrid 1\n"), 2, "The block has no name line");
        add("missing block", block("name k::k\ngrid 1\n"), 2, "The block has no block line");
        add("missing grid", block("name k::k\nblock 1\n"), 2, "The block has no grid line");
        add("bad kernel name", block("name 3d-gemm\nblock 1\ngrid 1\n"), 3,
            "The kernel's name \"3d-gemm\" is not");
        add("second block line", block(kLaunch + "block 64\n"), 6,
            "a second block line (the first is at line 4)");
        add("bad precision", block(kLaunch + "precision fp16\n"), 6, "The precision \"fp16\" is neither");
        add("param without anything", block(kLaunch + "param\n"), 6, "A param line needs a name");
        add("missing range", block(kLaunch + "param BM default 64\n"), 6, "The parameter BM has no values");
        add("missing default", block(kLaunch + "param BM 16..256\n"), 6, "The parameter BM has no default");
        add("min above max", block(kLaunch + "param BM 256..16 default 64\n"), 6,
            "The range of BM runs from 256 down to 16");
        add("zero step", block(kLaunch + "param BM 16..256 step 0 default 64\n"), 6,
            "The step of BM (0) must be");
        add("default outside", block(kLaunch + "param BM 16..256 default 512\n"), 6,
            "The default of BM (512) is outside its range 16..256");
        add("default off step", block(kLaunch + "param BM 16..256 step 16 default 70\n"), 6,
            "The default of BM (70) is not on its steps: 16 plus a multiple of 16");
        add("default not a choice", block(kLaunch + "param TM {4, 8} default 6\n"), 6,
            "The default of TM (6) is not one of its choices");
        add("repeated choice", block(kLaunch + "param TM {4, 8, 4} default 4\n"), 6, "list a value twice");
        add("bad choices", block(kLaunch + "param TM {4; 8} default 4\n"), 6, "The choices of TM are not");
        add("not an int", block(kLaunch + "param BM 1..99999999999 default 1\n"), 6,
            "does not fit a 32-bit int");
        add("text after default", block(kLaunch + "param BM 1..8 default 1 label\n"), 6,
            "has \"label\" after its default");
        add("duplicate param", block(kLaunch + "param BM 1..8 default 1\nparam BM 1..8 default 2\n"), 7,
            "The parameter BM is declared twice (first at line 6)");
        add("param not a name", block(kLaunch + "param 2x 1..8 default 1\n"), 6,
            "The parameter name \"2x\" is not a name");
        add("param called M", block(kLaunch + "param M 1..8 default 1\n"), 6, "may not be called M");
        add("param called min", block(kLaunch + "param min 1..8 default 1\n"), 6, "may not be called min");
        add("unknown name", block(kLaunch + "require BM > 2\n"), 6, "names BM, which is neither a parameter");
        add("unbalanced", block("name k::k\nblock (32\ngrid 1\n"), 4, "has '(' without its ')'");
        add("three block dims", block("name k::k\nblock 1, 2, 3\ngrid 1\n"), 4,
            "The block line has 3 expressions");
        add("shared uses K", block(kLaunch + "shared 4 * K\n"), 6,
            "may use the parameters only, not M, N or K");
        add("empty requirement", block(kLaunch + "require\n"), 6, "An expression is missing");
    }
    void malformedBlocks()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, sentence);
        const CustomStageParse p = parsed(text.toStdString());
        QVERIFY(!p.stage);
        QVERIFY2(!p.problems.empty(), "no problem reported");
        const bool found = std::any_of(p.problems.begin(), p.problems.end(), [&](const SourceProblem &s) {
            return s.line == line && QString::fromStdString(s.message).contains(sentence);
        });
        QVERIFY2(found, qPrintable(sentences(p.problems)));
    }

    void includes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("sentence"); // empty: no problem
        QTest::newRow("project header") << "#include \"common.cuh\"\n" << 0 << "";
        QTest::newRow("stage header") << "  #  include \"tma.cuh\" // a comment\n" << 0 << "";
        QTest::newRow("absolute path") << "\n#include \"/etc/passwd\"\n" << 2 << "includes \"/etc/passwd\"";
        QTest::newRow("parent folder") << "#include \"../x.h\"\n" << 1 << "includes \"../x.h\"";
        QTest::newRow("angle brackets") << "#include <cuda_fp16.h>\n" << 1 << "includes <cuda_fp16.h>";
        QTest::newRow("macro") << "#define H \"/etc/passwd\"\n#include H\n" << 2 << "given by a macro (H)";
        QTest::newRow("splice after hash") << "#\\\ninclude \"/etc/passwd\"\n"
                                           << 1 << "includes \"/etc/passwd\"";
        QTest::newRow("splice in name") << "#inc\\\nlude \"/etc/passwd\"\n"
                                        << 1 << "includes \"/etc/passwd\"";
        QTest::newRow("comments around") << "/* a */ # /* b\n */ include \"/etc/passwd\"\n"
                                         << 1 << "/etc/passwd";
        QTest::newRow("digraph") << "%:include \"/etc/passwd\"\n" << 1 << "includes \"/etc/passwd\"";
        QTest::newRow("include_next") << "#include_next \"common.cuh\"\n" << 1 << "uses #include_next";
        QTest::newRow("after a comment line") << "// x\n/* y\n*/\n#include \"x.h\"\n"
                                              << 4 << "includes \"x.h\"";
        QTest::newRow("text after name") << "#include \"common.cuh\" \"/etc/passwd\"\n"
                                         << 1 << "does not name one file in quotes";
        QTest::newRow("in a comment") << "/*\n#include \"/etc/passwd\"\n*/\n" << 0 << "";
        QTest::newRow("in a line comment") << "// #include \"/etc/passwd\"\n" << 0 << "";
        QTest::newRow("in a string") << "const char *s = \"#include </etc/passwd>\";\n" << 0 << "";
        // A comment opener inside a raw string or a character literal hides nothing.
        QTest::newRow("raw string") << "auto s = R\"( \"/*\" )\";\n#include \"/etc/passwd\"\n// */\n"
                                    << 2 << "/etc/passwd";
        QTest::newRow("char after keyword") << "case'a/*': break;\n#include \"/etc/passwd\"\n// */\n"
                                            << 2 << "/etc/passwd";
        QTest::newRow("digit separator") << "int x = 1'000; /*\n#include \"/etc/passwd\"\n*/\n" << 0 << "";
    }
    void includes()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, sentence);
        const std::vector<SourceProblem> problems = sourceProblems(text.toStdString());
        if (sentence.isEmpty()) {
            QVERIFY2(problems.empty(), qPrintable(sentences(problems)));
            return;
        }
        QCOMPARE(problems.size(), std::size_t(1));
        QCOMPARE(problems[0].line, line);
        QVERIFY2(QString::fromStdString(problems[0].message).contains(sentence), problems[0].message.c_str());
    }

    void binaryAndHugeSources()
    {
        const std::string nul = std::string("a\nb\nc") + '\0' + "d\n";
        std::vector<SourceProblem> p = sourceProblems(nul);
        QCOMPARE(p.size(), std::size_t(1));
        QCOMPARE(p[0].line, 3);
        QVERIFY(p[0].message.find("NUL byte") != std::string::npos);

        for (const std::string bad : {"a\n\xff\n", "a\n\xc0\xaf\n", "a\n\xed\xa0\x80\n", "a\n\xe2\x82"}) {
            p = sourceProblems(bad);
            QCOMPARE(p.size(), std::size_t(1));
            QCOMPARE(p[0].line, 2);
            QVERIFY(p[0].message.find("not valid UTF-8") != std::string::npos);
        }
        QVERIFY(sourceProblems("// caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n").empty());

        const std::string huge(kMaxKernelSourceBytes + 1, 'x');
        const CustomStageParse h = parsed(huge);
        QCOMPARE(h.problems.size(), std::size_t(1));
        QCOMPARE(h.problems[0].line, 0);
        QVERIFY(h.problems[0].message.find("at most 1048576 bytes") != std::string::npos);
    }

    // 10,000 parameters and a megabyte expression: each one sentence, quickly.
    void hostileSizesAreOneSentence()
    {
        std::string params;
        for (int i = 0; i < 10000; ++i)
            params += "param P" + std::to_string(i) + " 1..8 default 1\n";
        QElapsedTimer timer;
        timer.start();
        CustomStageParse p = parsed(block(kLaunch + params));
        QCOMPARE(p.problems.size(), std::size_t(1));
        QCOMPARE(p.problems[0].line, 6 + kMaxCustomParams);
        QCOMPARE(p.problems[0].message,
                 std::string("The block declares more than 16 parameters; a kernel may "
                             "have at most 16."));

        std::string expression = "require 1";
        while (expression.size() < 1000000)
            expression += "+1";
        p = parsed(block(kLaunch + expression + "\n"));
        QCOMPARE(p.problems.size(), std::size_t(1));
        QCOMPARE(p.problems[0].line, 6);
        QVERIFY(p.problems[0].message.find("an expression may have at most 512") != std::string::npos);
        QVERIFY2(timer.elapsed() < 20000, "two hostile blocks took more than 20 s to refuse");

        // Ten thousand bad lines: a bounded list, its last sentence says there are more.
        std::string bad;
        for (int i = 0; i < 10000; ++i)
            bad += "frobnicate\n";
        p = parsed(block(kLaunch + bad));
        QVERIFY(p.problems.size() <= 41);
        QVERIFY(p.problems.back().message.find("more problems") != std::string::npos);
    }

    void blankKernelParses()
    {
        QFile file(blankKernelPath());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(blankKernelPath()));
        const std::string text = file.readAll().toStdString();
        const CustomStageParse p = parsed(text, "blank_kernel.cuh");
        QVERIFY2(p.stage, qPrintable(sentences(p.problems)));
        QCOMPARE(p.stage->kernelName, std::string("gemmscope::my_gemm"));
        QVERIFY(p.stage->precision == Precision::Fp32);
        const ParamValues defaults{{"BM", 16}, {"BN", 16}, {"BK", 8}};
        QVERIFY(p.stage->model.launch && p.stage->model.staticSmem);
        QCOMPARE(p.stage->model.staticSmem(defaults), 4 * (16 * 8 + 8 * 16));
        const CustomStageParse r = registerCustomKernel({text, "blank_kernel.cuh", {}});
        QVERIFY(r.stage);
        QVERIFY(violations(StageId(r.stage->key), defaults, {}).empty());
        QVERIFY(!violations(StageId(r.stage->key), {{"BM", 64}, {"BN", 64}, {"BK", 8}}, {}).empty());
    }

    void keysAreStable()
    {
        QCOMPARE(customStageKey(""), std::string("user-cbf29ce484222325")); // FNV-1a's offset basis
        QCOMPARE(customStageKey("a"), std::string("user-af63dc4c8601ec8c"));
        QVERIFY(customStageKey(kSound) != customStageKey(std::string(kSound) + " "));
        QVERIFY(!isCustomStageKey("naive"));
        QVERIFY(!isCustomStageKey("user-CBF29CE484222325"));
        QVERIFY(!isCustomStageKey("user-cbf29ce48422232"));
    }

    void registryIsIdempotent()
    {
        const std::size_t before = customStages().size();
        const std::string text = block("name k::idem\nblock 32\ngrid 1\n");
        const CustomStageParse a = registerCustomKernel({text, "a.cuh", {}});
        const CustomStageParse b = registerCustomKernel({text, "b.cuh", {}});
        QVERIFY(a.stage && b.stage);
        QCOMPARE(customStages().size(), before + 1);
        QCOMPARE(findStage(a.stage->key), findStage(b.stage->key));
        QCOMPARE(findStage(a.stage->key)->sourceFile, std::string("a.cuh")); // the first one stays
        // Without parameters the kernel is a plain function: no template argument list.
        QCOMPARE(kernelNameExpression(StageId(a.stage->key), {}), std::string("k::idem"));
        QVERIFY(findStage("user-0000000000000000") == nullptr);
        // A stage that claims a built-in key is registered under its text's key instead.
        StageInfo impostor = *a.stage;
        impostor.key = "naive";
        impostor.sourceText = text + "// changed\n";
        const StageInfo &registered = registerCustomStage(impostor);
        QCOMPARE(registered.key, customStageKey(impostor.sourceText));
        QVERIFY(!findStage("naive")->isCustom);
    }

    // Two threads register and look up at once; every reference handed out stays valid.
    void registryFromTwoThreads()
    {
        const StageInfo &first = *findStage(registerCustomKernel({kSound, "tiles.cuh", {}}).stage->key);
        std::atomic<int> missing{0};
        const auto work = [&](int thread) {
            for (int i = 0; i < 200; ++i) {
                const std::string text = block("name k::t" + std::to_string(thread) + "_" +
                                               std::to_string(i) + "\nblock 32\ngrid 1\n");
                const CustomStageParse p = registerCustomKernel({text, "t.cuh", {}});
                if (!p.stage || findStage(p.stage->key) == nullptr || first.kernelName != "user::tiles")
                    ++missing;
            }
        };
        std::thread other(work, 1);
        work(2);
        other.join();
        QCOMPARE(missing.load(), 0);
        QCOMPARE(&first, findStage(customStageKey(kSound)));
    }
};

QTEST_APPLESS_MAIN(TestCustomStage)
#include "tst_custom_stage.moc"
