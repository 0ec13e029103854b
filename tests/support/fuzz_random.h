// What the seeded bad-input suites (tst_bad_inputs, tst_bad_requests) share: the random source,
// its seed and input count from the environment (GEMMSCOPE_FUZZ_SEED, GEMMSCOPE_FUZZ_COUNT), and
// byte noise. Each suite's generator derives from FuzzRandom and keeps its own hostile values.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <random>

namespace gemmscope::testsupport {

class FuzzRandom {
public:
    explicit FuzzRandom(quint64 seed) : m_rng(seed) {}

    int below(int n) { return int(std::uniform_int_distribution<int>(0, n - 1)(m_rng)); }
    bool chance(int percent) { return below(100) < percent; }
    std::mt19937_64 &rng() { return m_rng; }

    // Up to maxLength - 1 random bytes.
    QByteArray noise(int maxLength)
    {
        QByteArray bytes(below(maxLength), '\0');
        for (char &c : bytes)
            c = char(below(256));
        return bytes;
    }

private:
    std::mt19937_64 m_rng;
};

inline quint64 fuzzSeed()
{
    bool ok = false;
    const quint64 seed = qEnvironmentVariable("GEMMSCOPE_FUZZ_SEED").toULongLong(&ok);
    return ok ? seed : 20261130;
}

inline int fuzzCount()
{
    const int n = qEnvironmentVariableIntValue("GEMMSCOPE_FUZZ_COUNT");
    return n > 0 ? n : 10000;
}

} // namespace gemmscope::testsupport
