import { NavLink } from "react-router";
import { mainMenu } from "~/content/navigation";

type MainMenuProps = { className: string; listClassName: string; linkClassName: string; onNavigate?: () => void };

/** The main menu's links; the header shows them in a row, the mobile menu in a column. */
export function MainMenu({ className, listClassName, linkClassName, onNavigate }: MainMenuProps) {
  return (
    <nav aria-label="Main" className={className}>
      <ul className={listClassName}>
        {mainMenu.map((item) => (
          <li key={item.id}>
            <NavLink to={item.path} end onClick={onNavigate} className={linkClassName}>
              {item.name}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
