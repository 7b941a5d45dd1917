// The sample queries of the Wang et al. 2021 CCD benchmark (configure with
// -DIPC_CCD_QUERIES=<folder>, or set IPC_CCD_QUERIES when running the test):
// InclusionCCD must have no false negative; RootFindingCCD's false negatives
// and positives are reported, not asserted.

#include <catch2/catch.hpp>

#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>

#include "data_folders.hpp"
#include "sample_queries.hpp"

#include <string>


namespace {

template <typename Method>
ipc::CCDResult run(const Method& method, const ipc_test::SampleQuery& q)
{
    const auto& x = q.query.vertices;
    return q.edge_edge
        ? method.edge_edge_ccd_result(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7])
        : method.point_triangle_ccd_result(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
}

struct Tally {
    int queries = 0, positives = 0, false_negatives = 0, false_positives = 0, capped = 0;
    void add(bool truth, const ipc::CCDResult& r)
    {
        ++queries;
        positives += truth;
        false_negatives += truth && !r.collides();
        false_positives += !truth && r.collides();
        capped += r.status == ipc::CCDStatus::iteration_cap;
    }
    std::string str() const
    {
        return std::to_string(queries) + " queries (" + std::to_string(positives)
            + " positive): " + std::to_string(false_negatives) + " false negatives, "
            + std::to_string(false_positives) + " false positives, " + std::to_string(capped)
            + " at the iteration cap";
    }
};

} // namespace

TEST_CASE("sample CCD queries", "[ccd_comparison][sample_set]")
{
    const std::string root = ipc::test::ccd_queries_folder();
    if (root.empty()) {
        WARN("IPC_CCD_QUERIES is not set; skipping the sample-set test");
        return;
    }
    const std::vector<ipc_test::SampleQuery> queries = ipc_test::read_sample_queries(root);
    REQUIRE(!queries.empty());

#ifdef IPC_SANITIZED_BUILD
    const std::size_t stride = 10; // a subset keeps the sanitized run short
#else
    const std::size_t stride = 1;
#endif

    const ipc::InclusionCCD inclusion;
    const ipc::RootFindingCCD root_finding;
    const ipc::RootFindingCCD root_finding_exact(0.8, 0.0); // no acceptance tolerance
    Tally inclusion_tally[2], root_finding_tally[2], root_finding_exact_tally[2];
    for (std::size_t i = 0; i < queries.size(); i += stride) {
        const ipc_test::SampleQuery& q = queries[i];
        const ipc::CCDResult inc = run(inclusion, q);
        const ipc::CCDResult rf = run(root_finding, q);
        inclusion_tally[q.edge_edge].add(q.query.ground_truth, inc);
        root_finding_tally[q.edge_edge].add(q.query.ground_truth, rf);
        root_finding_exact_tally[q.edge_edge].add(q.query.ground_truth, run(root_finding_exact, q));
        if (q.query.ground_truth) {
            INFO(q.source << ": inclusion status " << ipc::to_string(inc.status));
            CHECK(inc.collides());
        }
        CHECK(inc.status != ipc::CCDStatus::invalid_input);
    }
    for (int kind = 0; kind < 2; ++kind) {
        const char* name = kind == 1 ? "edge-edge" : "vertex-face";
        WARN("InclusionCCD " << name << ": " << inclusion_tally[kind].str());
        WARN("RootFindingCCD " << name << ": " << root_finding_tally[kind].str());
        WARN("RootFindingCCD with zero_tolerance 0 " << name << ": "
                                                      << root_finding_exact_tally[kind].str());
        CHECK(inclusion_tally[kind].false_negatives == 0);
        CHECK(inclusion_tally[kind].queries > 0);
    }
}
