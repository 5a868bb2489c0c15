fn main() {
    std::process::exit(algchess::cli::main());
}
