#include <catch2/catch.hpp>

#include <common/cli.hpp>
#include <common/json_output.hpp>
#include <common/video_output.hpp>
#include <ipc/report.hpp>
#include <ipc/ipc_scenes.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace ipc::examples;

namespace {

/// The outcome of parsing one command line with the shared flags.
struct Parsed {
    std::optional<int> code;
    CommonOptions options;
    std::string out, err;
};

Parsed parse(std::vector<std::string> args)
{
    args.insert(args.begin(), "prog");
    std::vector<const char*> argv;
    for (const auto& a : args) {
        argv.push_back(a.c_str());
    }
    Parsed p;
    CLI::App app("test program", "prog");
    add_common_options(app, p.options, { "one", "two" });
    std::ostringstream out, err;
    p.code = parse_command_line(app, p.options, int(argv.size()), argv.data(), "prog --scene one", out, err);
    p.out = out.str();
    p.err = err.str();
    return p;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST_CASE("the shared command line accepts good values and the defaults", "[examples][cli]")
{
    Parsed p = parse({ "--scene", "two" });
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.scene == "two");
    CHECK(p.options.size == "small");
    CHECK_FALSE(p.options.paper());
    CHECK(p.options.frames == 0);
    CHECK(p.options.dt == 0);
    CHECK(p.options.out.empty());
    CHECK(p.options.json.empty());
    CHECK(p.options.threads == 0);
    CHECK(p.err.empty());

    p = parse({ "--scene", "one", "--size", "paper", "--frames", "7", "--dt", "1e-3", "--out", "d", "--json", "s.json",
        "--threads", "3" });
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.paper());
    CHECK(p.options.frames == 7);
    CHECK(p.options.dt == 1e-3);
    CHECK(p.options.out == "d");
    CHECK(p.options.json == "s.json");
    CHECK(p.options.threads == 3);

    p = parse({ "--list-scenes" }); // no --scene needed
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.list_scenes);

    p = parse({ "--scene-file", "a.json", "--dump-scene", "b.json" }); // a scene file instead of --scene
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.scene_file == "a.json");
    CHECK(p.options.dump_scene == "b.json");
    CHECK(p.options.scene.empty());
}

TEST_CASE("the shared command line answers help with 0 and mistakes with 2", "[examples][cli]")
{
    Parsed p = parse({ "--help" });
    REQUIRE(p.code.has_value());
    CHECK(*p.code == exit_ok);
    for (const char* flag :
        { "--scene", "--size", "--frames", "--dt", "--out", "--json", "--threads", "--list-scenes" }) {
        CHECK(contains(p.out, flag));
    }
    CHECK(p.err.empty());

    p = parse({}); // no arguments: usage and a hint on the error stream
    REQUIRE(p.code.has_value());
    CHECK(*p.code == exit_usage);
    CHECK(contains(p.err, "--scene"));
    CHECK(contains(p.err, "try: prog --scene one"));
    CHECK(contains(p.err, "--list-scenes"));
    CHECK(p.out.empty());

    for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>> {
             { "--bogus" },
             { "--scene", "nope" },
             { "--scene", "one", "--frames", "0" },
             { "--scene", "one", "--frames", "many" },
             { "--scene", "one", "--size", "huge" },
             { "--scene", "one", "--size", "0" },
             { "--scene", "one", "--size", "-5" },
             { "--scene", "one", "--size", "1e4" },
             { "--scene", "one", "--size", "100000001" },
             { "--scene", "one", "--dt", "-1" },
             { "--scene", "one", "--dt", "0" },
             { "--scene", "one", "--dt", "nan" },
             { "--scene", "one", "--dt", "inf" },
             { "--scene", "one", "--threads", "0" },
             { "--scene", "one", "extra" },
             { "--scene" },
             { "--frames", "3" }, // no --scene
         }) {
        INFO(bad.front() << " ...");
        p = parse(bad);
        REQUIRE(p.code.has_value());
        CHECK(*p.code == exit_usage);
        CHECK(contains(p.err, "prog: "));
        CHECK(contains(p.err, "try: "));
        CHECK(p.out.empty());
    }
    CHECK(contains(parse({ "--scene", "nope" }).err, "nope"));
    CHECK(contains(parse({ "--frames", "2" }).err, "--scene (or --scene-file) is required"));
    // A scene by name and from a file at once is a usage error.
    const auto both = parse({ "--scene", "one", "--scene-file", "one.json" });
    REQUIRE(both.code.has_value());
    CHECK(*both.code == exit_usage);
    CHECK(contains(both.err, "excludes"));
}

TEST_CASE("output locations are checked before a run", "[examples][cli]")
{
    namespace fs = std::filesystem;
    const fs::path dir
        = fs::temp_directory_path() / ("ipc_examples_cli_" + std::to_string(std::random_device {}()));
    fs::remove_all(dir);

    // A folder is created with its parents, and the probe file is gone.
    CHECK_FALSE(check_output_dir((dir / "a" / "b").string()).has_value());
    CHECK(fs::is_directory(dir / "a" / "b"));
    CHECK(fs::is_empty(dir / "a" / "b"));
    // A file path: its folder is created, a new file is not left behind and
    // an existing one keeps its contents.
    const fs::path json = dir / "c" / "stats.json";
    CHECK_FALSE(check_output_file(json.string()).has_value());
    CHECK(fs::is_directory(dir / "c"));
    CHECK_FALSE(fs::exists(json));
    {
        std::ofstream(json) << "kept";
    }
    CHECK_FALSE(check_output_file(json.string()).has_value());
    std::ifstream kept(json);
    std::string text;
    kept >> text;
    CHECK(text == "kept");

    // Places that cannot be written give a message naming them.
    const auto bad_dir = check_output_dir("/proc/nope");
    REQUIRE(bad_dir.has_value());
    CHECK(contains(*bad_dir, "/proc/nope"));
    const auto bad_file = check_output_file("/proc/nope/stats.json");
    REQUIRE(bad_file.has_value());
    CHECK(contains(*bad_file, "/proc/nope/stats.json"));
    CHECK(check_output_file(dir.string()).has_value()); // a folder is not a file
    CHECK(check_output_dir(json.string()).has_value()); // a file is not a folder
    fs::remove_all(dir);
}

TEST_CASE("--video plays in real time where the time step allows, else at 30 frames per second", "[examples][cli][video]")
{
    Parsed p = parse({ "--scene", "one", "--video", "out/run.mp4" });
    CHECK_FALSE(p.code.has_value());
    CHECK(p.options.video == "out/run.mp4");
    CHECK(parse({ "--scene", "one" }).options.video.empty());

    const VideoRate h25 = video_rate(0.04);
    CHECK(h25.fps == 25);
    CHECK(h25.speed == 1);
    CHECK(describe(h25) == "25 frames/s, real time");
    CHECK(video_rate(0.02).fps == 50);
    CHECK(video_rate(0.1).fps == 10);
    const VideoRate h100 = video_rate(0.01); // 100 steps per second: slow motion
    CHECK(h100.fps == 30);
    CHECK(h100.speed == Approx(100.0 / 30));
    CHECK(contains(describe(h100), "0.3 x real time"));
    CHECK(video_rate(0.5).fps == 30); // 2 steps per second: fast motion
    CHECK_THROWS_AS(video_rate(0), ipc::invalid_argument);
}

TEST_CASE("--video needs ffmpeg on PATH and says how to install it", "[examples][cli][video]")
{
    const char* saved = std::getenv("PATH");
    const std::string path = saved ? saved : "";
    ::setenv("PATH", "/nonexistent-folder", 1);
    CHECK_FALSE(find_ffmpeg().has_value());
    const auto problem = check_video_output("run.mp4");
    ::setenv("PATH", path.c_str(), 1);
    REQUIRE(problem.has_value());
    CHECK(contains(*problem, "ffmpeg"));
    CHECK(contains(*problem, "apt-get install ffmpeg"));
    CHECK_FALSE(check_video_output("").has_value()); // no --video, nothing to check
    CHECK(find_on_path("sh").has_value());
}

TEST_CASE("--size: small, paper, the paper's vertex count or a vertex count", "[examples][cli][scenes]")
{
    for (const std::string size : { "small", "paper", "full", "20000", "1" }) {
        const Parsed p = parse({ "--scene", "one", "--size", size });
        CHECK_FALSE(p.code.has_value());
        CHECK(p.options.scene_size().label() == size);
    }
    CHECK(parse({ "--scene", "one", "--size", "full" }).options.scene_size().kind == SceneSize::Kind::full);
    CHECK(SceneSize::parse("20000").vertices == 20000);
    CHECK_THROWS_WITH(SceneSize::parse("big"), Catch::Contains("'big'") && Catch::Contains("full"));
    CHECK_THROWS_AS(SceneSize::about(0), ipc::invalid_argument);

    // The sized scenes: full is within 3 % of the AL paper's vertex count
    // (chains 51.0K, checked here; press and well take seconds to build), and
    // a vertex count gives the resolution nearest it, larger for larger counts.
    const ipc::Index chains_full = make_scene("chains", SceneSize::full()).model.num_vertices();
    CHECK(std::abs(double(chains_full) / 51'000 - 1) < 0.03);
    ipc::Index previous = make_scene("chains", SceneSize::paper()).model.num_vertices();
    for (const ipc::Index asked : { ipc::Index(8'000), ipc::Index(25'000) }) {
        const ipc::Index got = make_scene("chains", SceneSize::about(asked)).model.num_vertices();
        INFO("chains asked " << asked << ", got " << got);
        CHECK(got > previous);
        CHECK(std::abs(std::log(double(got) / double(asked))) < std::log(1.6));
        previous = got;
    }
    for (const std::string name : { "press", "well" }) {
        const ipc::Index got = make_scene(name, SceneSize::about(10'000)).model.num_vertices();
        INFO(name << ": asked 10,000, got " << got);
        CHECK(std::abs(std::log(double(got) / 10'000)) < std::log(1.6));
        CHECK(make_scene(name, SceneSize::paper()).model.num_vertices()
            == make_scene(name, true).model.num_vertices());
    }
    // Other scenes have small and paper only, and say which scenes have more.
    CHECK_THROWS_WITH(make_scene("granules", SceneSize::full()),
        Catch::Contains("granules") && Catch::Contains("chains press well"));
    CHECK_THROWS_WITH(make_scene("nope", SceneSize::full()), Catch::Contains("unknown scene 'nope'"));
    CHECK(make_scene("granules", SceneSize::paper()).model.num_vertices()
        == make_scene("granules", true).model.num_vertices());
}

TEST_CASE("every scene has a one-line description for --list-scenes", "[examples][cli][scenes]")
{
    std::vector<SceneEntry> entries;
    for (const auto& name : scene_names()) {
        const Scene scene = make_scene(name);
        CHECK(scene.name == name);
        CHECK_FALSE(scene.description.empty());
        CHECK(scene.description.find('\n') == std::string::npos);
        CHECK(scene.shell_opacity > 0);
        CHECK(scene.shell_opacity <= 1);
        entries.push_back({ name, scene.description });
    }
    CHECK(entries.size() == 17);
    std::ostringstream out;
    print_scene_list(out, entries);
    std::istringstream lines(out.str());
    std::string line;
    std::size_t n = 0;
    while (std::getline(lines, line)) {
        REQUIRE(n < entries.size());
        CHECK(line.rfind(entries[n].name + " ", 0) == 0); // name first
        CHECK(contains(line, entries[n].description));
        ++n;
    }
    CHECK(n == entries.size());
}

TEST_CASE("the statistics document holds the steps and their totals", "[examples][cli][output]")
{
    const Scene scene = make_scene("hanging_cloth");
    std::vector<StepStats> steps(3);
    steps[0].newton_iterations = 4;
    steps[0].contacts = 10;
    steps[0].seconds = 0.5;
    steps[0].max_strain = 1.01;
    steps[1].newton_iterations = 6;
    steps[1].contacts = 30;
    steps[1].min_gap = 2e-4;
    steps[1].seconds = 1.5;
    steps[1].converged = false;
    steps[2].newton_iterations = 2;
    steps[2].contacts = 20;
    steps[2].min_gap = 1e-4;
    steps[2].max_strain = 1.03;
    steps[2].seconds = 1.0;
    steps[2].kappa = std::numeric_limits<double>::infinity();

    const RunTotals t = run_totals(steps);
    CHECK(t.steps == 3);
    CHECK(t.seconds == 3.0);
    CHECK(t.newton_iterations == 12);
    CHECK(t.per_step(t.newton_iterations) == 4);
    CHECK(t.max_contacts == 30);
    CHECK(t.min_gap == 1e-4);
    CHECK(t.max_strain == 1.03);
    CHECK(t.not_converged == 1);
    CHECK(run_totals({}).per_step(1.0) == 0);

    // Through a file and back with nlohmann's parser.
    const std::filesystem::path path = std::filesystem::temp_directory_path()
        / ("ipc_examples_report_" + std::to_string(std::random_device {}()) + ".json");
    write_json(path.string(), run_report(scene, "small", ipc_parameters(scene), steps));
    std::ifstream file(path);
    const nlohmann::json j = nlohmann::json::parse(file);
    std::filesystem::remove(path);

    CHECK(j.at("scene") == "hanging_cloth");
    CHECK(j.at("size") == "small");
    CHECK(j.at("parameters").at("dt") == scene.physics.dt);
    CHECK(j.at("parameters").at("dhat") == scene.physics.contact_gap);
    CHECK(j.at("parameters").at("strain_limit") == *scene.physics.strain_limit);
    CHECK(j.at("parameters").at("vertices") == scene.model.num_vertices());
    REQUIRE(j.at("steps").size() == 3);
    CHECK(j.at("steps")[0].at("newton_iterations") == 4);
    CHECK(j.at("steps")[0].at("min_gap").is_null());
    CHECK(j.at("steps")[0].at("max_strain") == 1.01);
    CHECK(j.at("steps")[1].at("converged") == false);
    CHECK(j.at("steps")[1].at("contacts") == 30);
    CHECK(j.at("steps")[2].at("kappa").is_null()); // infinite
    const nlohmann::json& totals = j.at("totals");
    CHECK(totals.at("steps") == 3);
    CHECK(totals.at("seconds") == 3.0);
    CHECK(totals.at("seconds_per_step") == 1.0);
    CHECK(totals.at("newton_iterations_per_step") == 4.0);
    CHECK(totals.at("max_contacts") == 30);
    CHECK(totals.at("min_gap") == 1e-4);
    CHECK(totals.at("max_strain") == 1.03);
    CHECK(totals.at("steps_not_converged") == 1);
    for (const char* key : { "seconds_assembly", "seconds_linear_solve", "seconds_ccd", "seconds_line_search" }) {
        CHECK(totals.at(key) == 0.0);
    }
}
